"""Shared setup of the zvmperf notebooks: paths, the zvmperf package from this checkout,
matplotlib (inline in Jupyter, Agg elsewhere), figure saving, and a generic "calibrated model over published
points" overlay driven by the fit files (so a notebook works for any registered model
without naming its parameters).

Every notebook starts with `from nbsetup import *`. Nothing here writes outside
notebooks/figures/ and temporary directories. Sweeps go through run_sweep(), which writes the
file (sweep layout 2: netCDF-4 / CF) with a tqdm progress bar and reads it back with
zvmperf.open_sweep; .to_xarray() / .to_dataframe() hand it to xarray and pandas, and
xarray.open_dataset(path, engine="h5netcdf") opens the same file directly.
"""
import configparser
import glob
import os
import sys
import tempfile

import matplotlib

# In Jupyter (an IPython kernel) the figures show inline (matplotlib's default there); plain
# scripts and headless runs without a display use Agg. run_all.sh sets MPLBACKEND=Agg itself.
if "ipykernel" not in sys.modules and not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def _find_repo():
    d = os.path.abspath(os.getcwd())
    while True:
        if os.path.isdir(os.path.join(d, "calibration")) and \
                os.path.isdir(os.path.join(d, "python-bindings")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            here = os.path.dirname(os.path.abspath(__file__))
            return os.path.dirname(here)
        d = parent


REPO = _find_repo()
DATA = os.path.join(REPO, "calibration", "data")
FITS = os.path.join(REPO, "calibration", "fits")
PARAMS = os.path.join(REPO, "calibration", "params")
REPORTS = os.path.normpath(os.path.join(REPO, "..", "shared", "reports"))
FIG_DIR = os.environ.get("ZVMPERF_FIG_DIR", os.path.join(REPO, "notebooks", "figures"))
os.makedirs(FIG_DIR, exist_ok=True)
TMP = tempfile.mkdtemp(prefix="zvmperf-nb-")

_pb = os.path.join(REPO, "python-bindings")
if _pb not in sys.path:
    sys.path.insert(0, _pb)
import zvmperf as z  # noqa: E402

plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 110, "axes.grid": True,
                     "grid.alpha": 0.3, "legend.fontsize": 8, "axes.titlesize": 10})

# Colours: z/VM 6.3 and 6.4 (or measured/model pairs) keep the same colour everywhere.
C63, C64 = "tab:red", "tab:blue"


def note(text):
    """Show a Markdown note in the notebook (plain print outside Jupyter)."""
    try:
        from IPython.display import Markdown, display
        display(Markdown(text))
    except Exception:  # pragma: no cover
        print(text)


def savefig(fig, name):
    """Save a figure as notebooks/figures/<name>.png and return the path. Written to a
    temporary file beside it and renamed over it only when complete (as the library writes
    every file): a failed or interrupted save leaves the previous figure."""
    path = os.path.join(FIG_DIR, name + ".png")
    fd, tmp = tempfile.mkstemp(prefix="." + name + ".png.", suffix=".tmp", dir=FIG_DIR)
    try:
        with os.fdopen(fd, "wb") as fp:
            fig.savefig(fp, format="png", bbox_inches="tight")
            fp.flush()
            os.fsync(fp.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    print("figure:", os.path.relpath(path, REPO))
    return path


def run_sweep(model_file, axes, name, progress=True, **kw):
    """Sweep model_file over axes into TMP/<name>.h5 with a progress bar (tqdm, on stderr) and
    read it back: a zvmperf.Sweep (open_sweep) whose .path is the file. Ctrl-C stops the
    sweep within one block (KeyboardInterrupt). Extra keywords go to zvmperf.sweep."""
    path = z.sweep(model_file, axes, os.path.join(TMP, name + ".h5"), progress=progress, **kw)
    return z.open_sweep(path)


def published(name):
    """A measurement table of calibration/data (read by the C CSV reader)."""
    return z.read_table(os.path.join(DATA, name))


def has_model(name):
    return name in z.model_names()


def model_files_for(name):
    """Calibrated model files in calibration/params/ whose [model] name is `name`."""
    out = []
    for p in sorted(glob.glob(os.path.join(PARAMS, "*.ini"))):
        cp = configparser.ConfigParser(inline_comment_prefixes=(";",), interpolation=None)
        try:
            cp.read(p)
            if cp.get("model", "name", fallback=None) == name:
                out.append(p)
        except configparser.Error:
            pass
    return out


def fits_for(name):
    """(path, FitData or the exception) for the fit files in calibration/fits/ of model `name`."""
    out = []
    for p in sorted(glob.glob(os.path.join(FITS, "*.ini"))):
        cp = configparser.ConfigParser(inline_comment_prefixes=(";",), interpolation=None)
        try:
            cp.read(p)
        except configparser.Error:
            continue
        if cp.get("fit", "model", fallback=None) != name:
            continue
        try:
            out.append((p, z.read_fit(p)))
        except Exception as e:  # a half-written fit file: report it, do not fail the notebook
            out.append((p, e))
    return out


def model_status(name):
    """One Markdown paragraph on whether model `name` is registered and calibrated."""
    if not has_model(name):
        return ("**Model `%s` is not registered in this build of libzvmperf** (registered: %s). "
                "The figures below show the published points only." % (name, ", ".join(
                    z.model_names())))
    files = model_files_for(name)
    fits = fits_for(name)
    if not files:
        return ("Model `%s` is registered but has **no calibrated model file** in "
                "calibration/params/ yet (fit files: %s). Published points only."
                % (name, ", ".join(os.path.basename(p) for p, _ in fits) or "none"))
    return ("Model `%s` is registered; calibrated files: %s; fit files: %s."
            % (name, ", ".join(os.path.basename(p) for p in files),
               ", ".join(os.path.basename(p) for p, _ in fits) or "none"))


# Physical axes preferred, in order, for plotting per-run values (before any other input).
_PHYSICAL = ("cpus", "storage_gb", "users", "users_per_phase", "paging_volumes", "volumes")


def physical_axis(fd):
    """The input parameter of FitData fd to plot its runs against: the first of _PHYSICAL,
    then of its [inputs], that takes more than one value over the rows; None when none does
    (the runs are then labelled by their IDs)."""
    names = [n for n in _PHYSICAL if n in fd.inputs] + [n for n in fd.inputs if n not in _PHYSICAL]
    for n in names:
        if len(np.unique(fd.inputs[n])) > 1:
            return n
    return None


def model_band(fd, level=0.9):
    """({output: (value, lo, hi)} of the calibrated model at fd's rows with its `level`
    prediction interval, None) or (None, the reason there is no band: a saturated or
    uncalibrated file has no covariance)."""
    try:
        r = fd.predict(interval=level)
    except z.ZvmperfError as e:
        return None, "no interval: %s" % str(e).split(": ")[-1][:60]
    n = len(fd.rows)
    return {o: tuple(np.broadcast_to(np.asarray(a, dtype=float), (n,)) for a in r[o])
            for o in fd.matched}, None


def overlay(name, figname, max_cols=4):
    """For every fit file of model `name` whose calibrated output exists: evaluate the
    calibrated model at the fit's data rows (its [fixed] and [inputs], no refit) and plot each
    matched output, measured points against model values with their 90% prediction interval
    (when the file has a covariance), one panel per output, against the physical axis of the
    runs (physical_axis: storage, CPUs, ...; run IDs only when no input varies). Returns the
    list of saved figure paths (empty, with a note, when the model or its files are missing)."""
    if not has_model(name):
        note(model_status(name))
        return []
    paths = []
    for fit_path, fd in fits_for(name):
        base = os.path.splitext(os.path.basename(fit_path))[0]
        if isinstance(fd, Exception):
            note("Fit file `%s` could not be read: %s" % (base, fd))
            continue
        if not fd.output or not os.path.exists(fd.output):
            note("Fit file `%s`: calibrated model file `%s` not found; run `make calibrate`."
                 % (base, fd.output))
            continue
        try:
            pred = fd.predict()
        except Exception as e:
            note("Fit file `%s`: evaluating the calibrated model failed: %s" % (base, e))
            continue
        outs = list(fd.matched)
        if len(fd.rows) == 1:  # one measured run: show the relative deviation per output
            dev = [100 * (pred[o][0] - fd.matched[o][0]) / abs(fd.matched[o][0])
                   if fd.matched[o][0] else np.nan for o in outs]
            fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(outs)), 3.2))
            ax.bar(range(len(outs)), dev, color="tab:orange")
            ax.axhline(0, color="k", lw=0.8)
            ax.set_xticks(range(len(outs)))
            ax.set_xticklabels(["%s\n%.4g vs %.4g" % (o, pred[o][0], fd.matched[o][0])
                                for o in outs], fontsize=7, rotation=30)
            ax.set_ylabel("(model - published) / published [%]")
            ax.set_title("%s (run %s): calibrated model against published, model vs published"
                         % (base, fd.rows[0]))
            fig.tight_layout()
            paths.append(savefig(fig, "%s-%s" % (figname, base)))
            plt.close(fig)
            continue
        ncol = min(max_cols, len(outs))
        nrow = (len(outs) + ncol - 1) // ncol
        fig, axs = plt.subplots(nrow, ncol, figsize=(3.3 * ncol, 2.7 * nrow), squeeze=False)
        xname = physical_axis(fd)
        x = fd.inputs[xname] if xname else np.arange(len(fd.rows))
        band, why = model_band(fd)
        for k, out in enumerate(outs):
            ax = axs[k // ncol][k % ncol]
            ax.plot(x, fd.matched[out], "o", color="k", label="published")
            if band is not None:
                v, lo, hi = band[out]
                ax.errorbar(x, v, yerr=[v - lo, hi - v], fmt="s", mfc="none", color="tab:orange",
                            capsize=3, label="calibrated model, 90% prediction interval")
            else:
                ax.plot(x, pred[out], "s", mfc="none", color="tab:orange",
                        label="calibrated model (%s)" % why)
            bad = pred.status != 1
            if np.any(bad):
                ax.plot(x[bad], np.zeros(bad.sum()), "rx", label="no model value")
            ax.set_title("%s [%s]" % (out, pred.units.get(out, "")))
            ax.ticklabel_format(axis="y", useOffset=False)
            if xname:
                ax.set_xlabel("%s [%s]" % (xname, z.model(name).param(xname).unit))
            else:
                ax.set_xticks(x)
                ax.set_xticklabels(fd.rows, rotation=60, fontsize=6)
        for k in range(len(outs), nrow * ncol):
            axs[k // ncol][k % ncol].axis("off")
        axs[0][0].legend()
        fig.suptitle("%s: published points and calibrated model (%s)" % (base, name))
        fig.tight_layout()
        paths.append(savefig(fig, "%s-%s" % (figname, base)))
        plt.close(fig)
    if not paths:
        note(model_status(name))
    return paths


__all__ = ["z", "np", "plt", "os", "REPO", "DATA", "FITS", "PARAMS", "REPORTS", "FIG_DIR",
           "TMP", "C63", "C64", "note", "savefig", "run_sweep", "published", "has_model",
           "model_files_for", "fits_for", "model_status", "overlay", "physical_axis",
           "model_band"]
