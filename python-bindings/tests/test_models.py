"""Registry, eval (scalar and vectorised), model files, tables, library loading."""
import os
import subprocess
import sys

import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB, PKG_ROOT


def test_version_matches_library():
    assert z.__version__ == z.version() == "0.1.0"
    assert z._clib.zvp_version_number() == z._clib.ZVP_VERSION_NUMBER == 100


def test_registry_is_discovered_and_descriptors_are_sane():
    ms = z.models()
    names = [m.name for m in ms]
    assert len(ms) == z._clib.zvp_model_count() and "sweetspot" in names and "mmc" in names
    for m in ms:
        assert m.params and m.outputs and m.description and m.source
        for p in m.params:
            assert p.unit and p.min <= p.default <= p.max, (m.name, p)
        assert z.model(m.name) == m
        assert list(m.defaults()) == list(m.param_names)


def test_unknown_model_lists_registered_names():
    with pytest.raises(z.NotFoundError) as ei:
        z.model("no_such_model")
    assert "no_such_model" in ei.value.message and "sweetspot" in ei.value.message


def test_eval_mmc_model_closed_form():
    r = z.eval("mmc", arrival_rate_per_s=0.6, service_rate_per_s=1.0, servers=1)
    assert r["mean_in_system"] == pytest.approx(0.6 / 0.4, rel=1e-12)
    assert r.units["response_s"] == "s" and r.status == 1


def test_eval_bad_parameter_value_and_name():
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.eval("sweetspot", cpus=-3)
    assert "cpus" in ei.value.message and "-3" in ei.value.message
    with pytest.raises(z.NotFoundError) as ei:
        z.eval("sweetspot", cpuz=3)
    assert "cpuz" in ei.value.message


def test_eval_vectorised_equals_scalar():
    mf = z.ModelFile.read(os.path.join(CALIB, "params", "sweetspot-zvm63.ini"))
    storage = np.array([256.0, 700.0, 1536.0, 2048.0])
    cpus = np.array([[32.0], [64.0]])                      # broadcast to (2, 4)
    vec = mf.eval(storage_gb=storage, cpus=cpus)
    assert vec["etr"].shape == (2, 4) and (vec.status == 1).all()
    for i in range(2):
        for j in range(4):
            one = mf.eval(storage_gb=storage[j], cpus=cpus[i, 0])
            for name in mf.model.output_names:
                assert vec[name][i, j] == one[name], name   # same C code, same bits
    mf.close()


def test_eval_vectorised_nan_mode_and_raise_mode():
    lam = np.array([0.5, 2.0, 0.9])
    r = z.eval("mmc", arrival_rate_per_s=lam, on_error="nan")
    assert list(r.status) == [1, 2, 1]
    assert np.isnan(r["mean_in_system"][1])
    assert r["mean_in_system"][2] == pytest.approx(0.9 / 0.1, rel=1e-9)
    with pytest.raises(z.UnstableError) as ei:
        z.eval("mmc", arrival_rate_per_s=lam)
    assert "point 1" in str(ei.value)


def test_model_file_read_set_write_roundtrip(tmp_path):
    src = os.path.join(CALIB, "params", "sweetspot-zvm63.ini")
    with z.ModelFile.read(src) as mf:
        assert mf.model.name == "sweetspot" and "[parameters]" in mf.text
        view = mf.vector
        mf.set(cpus=128)
        assert view[mf.model.param_index("cpus")] == 128   # zero-copy view of C memory
        with pytest.raises(z.InvalidArgumentError) as ei:
            mf.set("cpus", 1e9)
        assert "cpus" in ei.value.message
        out = mf.write(tmp_path / "copy.ini")
        assert mf.stderr["avail_hold_us"] > 0
    with z.ModelFile.read(out) as back:
        assert back.params["cpus"] == 128
    with pytest.raises(z.ZvmperfIOError):
        z.ModelFile.read(tmp_path / "missing.ini")


def test_read_table_published_values():
    t = z.read_table(os.path.join(CALIB, "data", "000_table3_sweetspot_zvm63.csv"))
    assert t.rows == 6 and t.units["etr"] == "kpages/s"
    # first printed column of Table 3 (report 000): ETR 179.02, logoff 104
    assert t["etr"][0] == 179.02 and t["logoff_s"][0] == 104
    assert t.text("runid")[0] == "SSXS6287" and np.isnan(t["runid"][0])
    assert any(c.startswith("source:") for c in t.comments)


def test_parse_axis():
    name, v = z.parse_axis("storage_gb=256:1024:256")
    assert name == "storage_gb" and list(v) == [256, 512, 768, 1024]
    with pytest.raises(z.ParseError):
        z.parse_axis("storage_gb")


def _run(env_extra):
    env = dict(os.environ, PYTHONPATH=PKG_ROOT, **env_extra)
    return subprocess.run([sys.executable, "-c", "import zvmperf"], env=env,
                          capture_output=True, text=True)


def test_missing_library_is_a_clear_import_error(tmp_path):
    p = _run({"ZVMPERF_LIB": str(tmp_path / "libnothere.so")})
    assert p.returncode != 0
    assert "ImportError" in p.stderr and "libnothere.so" in p.stderr and "ZVMPERF_LIB" in p.stderr


def test_version_mismatch_is_an_import_error(tmp_path):
    # Bindings that expect another version must refuse the library.
    code = "import zvmperf._clib"
    env = dict(os.environ, ZVMPERF_LIB=z.library_path())  # the library that loaded here
    src = open(os.path.join(PKG_ROOT, "zvmperf", "_clib.py")).read()
    pkg = tmp_path / "zvmperf"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_clib.py").write_text(src)
    # the version comes from _version.py (generated by make): the bindings expect x.y.7
    major, minor, _ = z.__version__.split(".")
    (pkg / "_version.py").write_text('__version__ = ZVP_VERSION_STRING = "%s.%s.7"\n'
                                     % (major, minor))
    env["PYTHONPATH"] = str(tmp_path)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       cwd=str(tmp_path))  # cwd first on sys.path: must be the patched copy
    assert p.returncode != 0 and "version" in p.stderr and "107" in p.stderr
