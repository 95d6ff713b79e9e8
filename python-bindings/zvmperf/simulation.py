"""Simulation of a model's queueing network (zvp_model_simulate): the model's outputs as
simulated, each with its 95% confidence interval, beside the analytic value of eval.

    >>> import zvmperf as z
    >>> r = z.simulate("spinlock", cpus=32, work_us=60, hold_us=1, events=100000)
    >>> r["spin_busy_pct"]          # Estimate(value, ci_lo, ci_hi, analytic, unit)

Models that describe their network: spinlock, mmc, repairman (models/README.md)."""
import ctypes
import os
from collections import OrderedDict, namedtuple
from ctypes import byref

import numpy as np

from . import _clib as C
from .errors import _check
from .modeling import ModelFile

__all__ = ["simulate", "Estimate", "SimulationResult"]

Estimate = namedtuple("Estimate", "value ci_lo ci_hi analytic unit")
Estimate.__doc__ = ("One simulated output: mean `value` and its 95% interval [ci_lo, ci_hi] "
                    "(NaN when the simulator does not measure it), and the model's analytic "
                    "value (NaN when eval fails).")


class SimulationResult(OrderedDict):
    """Output name -> Estimate, in the model's output order; .model, .params (name -> value)
    and .not_simulated (name -> reason) describe the run; .outputs_clipped lists the outputs
    whose replications disagreed by more than their mean (the 95% interval reached below 0 and
    ci_lo is clipped to 0: `zvmperf simulate` warns NOT CONVERGED for them); .analytic_error
    is None, or the message of the eval that failed (the analytic values are then NaN)."""


def simulate(model_or_file, replications=10, events=1000000, precision=0.0, seed=1,
             threads=0, max_events=0, **params):
    """Simulate the network a model describes at one point.

    model_or_file: a registered model name, a Model, a ModelFile, or the path of a model
    file (*.ini). Keyword arguments other than the run options override parameters by name
    (scalars). Run options as `zvmperf simulate`: replications per round, events per
    replication, precision (0: off; else rounds until every mean's half-width <= precision
    x |mean|, capped by max_events), seed (same numbers for any threads).
    Returns a SimulationResult; raises InvalidArgumentError for a model without a network or a
    bad parameter (the C message names it)."""
    if isinstance(model_or_file, ModelFile):
        mf = model_or_file.copy()
    elif isinstance(model_or_file, (str, os.PathLike)) and str(model_or_file).endswith(".ini"):
        mf = ModelFile.read(model_or_file)
    else:
        mf = ModelFile.new(model_or_file)
    with mf:
        for name, value in params.items():
            mf.set(name, float(value))
        m = mf.model
        p = np.array(mf.vector, dtype=np.float64)
        opt = C.zvp_sim_options()
        C.zvp_sim_default_options(byref(opt))
        opt.replications = int(replications)
        opt.events = int(events)
        opt.max_events = int(max_events)
        opt.precision = float(precision)
        opt.seed = int(seed)
        opt.threads = int(threads)
        n = len(m.outputs)
        est = (C.zvp_sim_estimate * n)()
        why = (ctypes.c_char_p * n)()
        err = C.zvp_error()
        _check(C.zvp_model_simulate(m._ptr, p, byref(opt), est, why, None, byref(err)), err)
        an = np.full(n, np.nan)
        err2 = C.zvp_error()
        an_rc = C.zvp_model_eval(m._ptr, p, an, byref(err2))
        if an_rc != 0:
            an[:] = np.nan  # a failed eval leaves no analytic value
        res = SimulationResult()
        res.model = m.name
        res.params = OrderedDict((d.name, float(v)) for d, v in zip(m.params, p))
        res.not_simulated = OrderedDict()
        res.outputs_clipped = []
        res.analytic_error = err2.message.decode() if an_rc != 0 else None
        for j, d in enumerate(m.outputs):
            res[d.name] = Estimate(est[j].mean, est[j].ci_lo, est[j].ci_hi, float(an[j]), d.unit)
            if why[j]:
                res.not_simulated[d.name] = why[j].decode()
            elif est[j].ci_lo == 0.0 and est[j].mean - est[j].half_width < 0.0:
                res.outputs_clipped.append(d.name)
        return res
