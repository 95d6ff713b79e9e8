"""Issue 9 (no silent wrong results) through the Python bindings: parameter vectors that
outlive their model file, integers outside the C type's range, overflowing kernels and the
internal-error status."""
import gc
import os

import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB
from zvmperf import _clib

SWEETSPOT = os.path.join(CALIB, "params", "sweetspot-zvm63.ini")


def _expected_vector():
    with z.ModelFile.read(SWEETSPOT) as mf:
        return np.array(mf.vector, copy=True)


def test_vector_outlives_the_model_file():
    want = _expected_vector()
    v = z.ModelFile.read(SWEETSPOT).vector  # the ModelFile goes at once
    gc.collect()
    junk = [z.ModelFile.read(SWEETSPOT) for _ in range(20)]  # reuse freed memory if any
    junk += [np.full(64, 1.5e-315) for _ in range(200)]
    assert np.array_equal(v, want)
    assert not v.flags.writeable
    del junk
    # after close() the view stays valid too, while the object refuses use
    mf = z.ModelFile.read(SWEETSPOT)
    w = mf.vector
    mf.close()
    with pytest.raises(ValueError):
        mf.vector
    gc.collect()
    [z.ModelFile.new("sweetspot") for _ in range(20)]
    assert np.array_equal(w, want)
    # and it is still a view: it follows set() while the file is open
    with z.ModelFile.read(SWEETSPOT) as mf:
        view = mf.vector
        mf.set(cpus=96)
        assert view[mf.model.param_index("cpus")] == 96


@pytest.mark.parametrize("big", [2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 40, 2 ** 64, -1])
def test_station_servers_beyond_int32_raise(big):
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mva([z.Station("multi", 0.1, servers=big)], 1.0, 10)
    assert "stations[0].servers" in ei.value.message and str(big) in ei.value.message


@pytest.mark.parametrize("big", [2 ** 32, 2 ** 32 + 3, 2 ** 63])
def test_station_replicas_beyond_uint32_raise(big):
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mva([z.Station("queue", 0.1, replicas=big)], 1.0, 10)
    assert "stations[0].replicas" in ei.value.message and "4294967295" in ei.value.message
    with pytest.raises(z.InvalidArgumentError):
        z.mva_bounds([z.Station("queue", 0.1, replicas=big)], 1.0, 10)


def test_integers_checked_against_their_c_type():
    # exact for large Python ints (no float rounding): 2^53 + 1 is not silently 2^53
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mmc(1.0, 2.0, servers=2 ** 64)
    assert "servers" in ei.value.message
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mva_approx([0.1, 0.2], 1.0, 10, max_iterations=2 ** 32)
    assert "max_iterations" in ei.value.message
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.eval("mmc", threads=2 ** 31)
    assert "threads" in ei.value.message
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.strerror(2 ** 32 + 1)  # would wrap to 1 ("invalid argument")
    assert "status" in ei.value.message
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mva([0.1], 1.0, 2 ** 64)
    assert "customers" in ei.value.message
    # inside the range works, numpy integers included
    assert z.mva([z.Station("multi", 0.1, servers=np.int64(2))], 1.0, np.uint32(3))


def test_network_overflow_is_invalid_argument():
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mva([1e307, 1e307], 1.0, 100)  # R = N D ~ 1e309
    assert "outside the range double arithmetic can solve" in ei.value.message
    # 1e300 demands have a representable answer (solved in a scaled time unit): two balanced
    # queues, Z << D: X = N/((N + 1) D), R = (N + 1) D
    r = z.mva([1e300, 1e300], 1.0, 10)
    assert r[0] == pytest.approx(10 / 11 / 1e300, rel=1e-12)
    assert r[1] == pytest.approx(11e300, rel=1e-12)
    with pytest.raises(z.InvalidArgumentError):
        z.usl(1e300, 1e300, 0.0, 0.0)


def test_internal_error_status():
    # ZVP_ECANCELED (issue 10) follows ZVP_EINTERNAL, the last before it
    assert _clib.ZVP_EINTERNAL == 10 == _clib.ZVP_ECANCELED - 1 == _clib.ZVP_ENUM_STATUS - 2
    e = z.errors._error(_clib.ZVP_EINTERNAL, "internal check failed: x")
    assert isinstance(e, z.InternalError) and isinstance(e, RuntimeError)
    assert "internal" in z.strerror(_clib.ZVP_EINTERNAL)


def test_fsio_page_cache_sweep_stays_in_range():
    path = os.path.join(CALIB, "params", "fsio-cid64-20.ini")
    pc = np.geomspace(0.3, 1e5, 60)
    # large caches saturate the paging DASD: no steady state (status 2, unstable)
    r = z.eval(path, page_cache_gb=pc, on_error="nan")
    assert (r.status[pc <= 6] == 1).all() and (r.status[pc >= 1000] == 2).all()
    # residency alone: page reads without device time
    r = z.eval(path, page_cache_gb=pc, dasd_read_ms=0.0, on_error="nan")
    assert (r.status == 1).all()
    assert (r["dpa_share_pct"] <= 100).all() and (r["resident_gb"] <= r["dpa_gb"]).all()
    assert (r["resident_share_pct"] <= 100).all()
