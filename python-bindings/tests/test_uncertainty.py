"""zvmperf.eval(..., interval=), validate and sensitivity: against the CLI (its --json) and
closed forms."""
import json
import os
import subprocess

import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB, REPO

CLI = os.path.join(REPO, "build", "zvmperf")
SWEET = os.path.join(CALIB, "params", "sweetspot-zvm63.ini")
APACHE = os.path.join(CALIB, "params", "apache-zvm63.ini")
FIT_MM1 = os.path.join(REPO, "tests", "data", "fit_mm1.ini")

needs_cli = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="build/zvmperf not built")


def cli_json(*args):
    out = subprocess.run([CLI] + list(args) + ["--json"], capture_output=True, text=True,
                         cwd=REPO)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("path", [SWEET, APACHE])
@pytest.mark.parametrize("method", ["delta", "mc"])
def test_interval_contains_value(path, method):
    r = z.eval(path, interval=0.9, method=method, samples=400)
    plain = z.eval(path)
    assert r.level == 0.9 and r.kind == "prediction" and r.method == method
    assert list(r) == list(plain)
    for name, iv in r.items():
        assert iv.value == plain[name]
        if np.isfinite(iv.lo):
            assert iv.lo <= iv.value <= iv.hi, name
        assert r.value[name] == iv.value and r.lo[name] == iv.lo and r.hi[name] == iv.hi
    assert any(iv.lo < iv.value < iv.hi for iv in r.values())


def test_confidence_is_narrower_than_prediction():
    p = z.eval(SWEET, interval=0.9)
    c = z.eval(SWEET, interval=0.9, confidence=True)
    assert c.kind == "confidence" and set(c.kinds.values()) == {"confidence"}
    assert p.kinds["etr"] == "prediction"
    assert c["etr"].hi - c["etr"].lo < p["etr"].hi - p["etr"].lo


@needs_cli
@pytest.mark.parametrize("extra", [[], ["--confidence"], ["cpus=48"]])
def test_delta_equals_cli_json(extra):
    over = {a.split("=")[0]: float(a.split("=")[1]) for a in extra if "=" in a}
    r = z.eval(SWEET, interval=0.9, confidence="--confidence" in extra, **over)
    d = cli_json("eval", SWEET, "--interval", "0.9", *extra)
    assert d["interval"]["method"] == "delta"
    assert r.dof_effective == d["interval"]["dof_effective"]
    for name, iv in r.items():
        o = d["outputs"][name]
        assert iv.value == pytest.approx(o["value"], rel=1e-13, abs=1e-300)
        if np.isfinite(iv.lo):
            assert iv.lo == pytest.approx(o["lo"], rel=1e-13, abs=1e-300)
            assert iv.hi == pytest.approx(o["hi"], rel=1e-13, abs=1e-300)
        assert o["kind"].startswith(r.kinds[name])


@needs_cli
def test_mc_reproducible_for_a_seed_and_equal_to_cli():
    a = z.eval(SWEET, interval=0.9, method="mc", samples=300, seed=7, threads=1)
    b = z.eval(SWEET, interval=0.9, method="mc", samples=300, seed=7, threads=2)
    c = z.eval(SWEET, interval=0.9, method="mc", samples=300, seed=8)
    assert [tuple(v) for v in a.values()] == [tuple(v) for v in b.values()]
    assert a["etr"].lo != c["etr"].lo
    assert a.samples == 300 and a.seed == 7 and 0 <= a.no_steady_state <= 1
    d = cli_json("eval", SWEET, "--interval", "0.9", "--method", "mc", "--samples", "300",
                 "--seed", "7")
    for name, iv in a.items():
        if np.isfinite(iv.lo):
            assert iv.lo == pytest.approx(d["outputs"][name]["lo"], rel=1e-13)
            assert iv.hi == pytest.approx(d["outputs"][name]["hi"], rel=1e-13)


@needs_cli
def test_mc_ranges_equal_cli():
    r = z.eval(SWEET, interval=0.9, method="mc", samples=200, seed=3,
               ranges={"paging_volumes": (16, 48)})
    assert r.params["paging_volumes"] == 32
    d = cli_json("eval", SWEET, "paging_volumes=16..48", "--interval", "0.9", "--method", "mc",
                 "--samples", "200", "--seed", "3")
    assert r["etr"].lo == pytest.approx(d["outputs"]["etr"]["lo"], rel=1e-13)
    assert r["etr"].hi == pytest.approx(d["outputs"]["etr"]["hi"], rel=1e-13)
    with pytest.raises(z.InvalidArgumentError, match="delta|range"):
        z.eval(SWEET, interval=0.9, ranges={"paging_volumes": (16, 48)})


def test_arrays_in_c_equal_points_alone():
    st = np.array([256.0, 512.0, 1024.0])
    cpus = np.array([[16.0], [48.0]])
    r = z.eval(SWEET, interval=0.9, storage_gb=st, cpus=cpus)
    assert r["etr"].value.shape == (2, 3) and r.status.shape == (2, 3)
    assert np.all(r.status == 1)
    for i in range(2):
        for k in range(3):
            one = z.eval(SWEET, interval=0.9, storage_gb=st[k], cpus=cpus[i, 0])
            for name in ("etr", "busy_per_cpu_pct"):
                assert r[name].value[i, k] == one[name].value
                assert r[name].lo[i, k] == one[name].lo
                assert r[name].hi[i, k] == one[name].hi
    assert np.all(r.lo["etr"] <= r.value["etr"]) and np.all(r.value["etr"] <= r.hi["etr"])
    with z.ModelFile.read(SWEET) as mf:
        m = mf.eval(interval=0.9, storage_gb=st)
    assert np.array_equal(m["etr"].hi, z.eval(SWEET, interval=0.9, storage_gb=st)["etr"].hi)


def test_saturated_and_uncalibrated_files_have_no_interval():
    with pytest.raises(z.InvalidArgumentError, match="undefined"):
        z.eval(os.path.join(CALIB, "params", "cms-vmesa240.ini"), interval=0.9)
    with pytest.raises(z.InvalidArgumentError, match="covariance"):
        z.eval("mmc", interval=0.9)
    with pytest.raises(z.InvalidArgumentError, match="method"):
        z.eval(SWEET, interval=0.9, method="bootstrap")
    with pytest.raises(z.InvalidArgumentError, match="level|interval"):
        z.eval(SWEET, interval=1.5)


@needs_cli
def test_validate_matches_cli_json():
    v = z.validate(FIT_MM1)
    d = cli_json("validate", FIT_MM1)
    assert v.scheme == d["scheme"] == "loo" and v.model == d["model"]
    assert v.in_sample_mape_pct == pytest.approx(d["in_sample_mape_pct"]["value"], rel=1e-9,
                                                 abs=1e-15)
    assert v.cv_mape_pct == pytest.approx(d["cv_mape_pct"]["value"], rel=1e-9, abs=1e-15)
    assert v.dof_effective == d["dof_effective"] == 5
    assert v.coverage_90_pct == d["coverage_90_pct"]["value"]
    assert v.coverage == d["coverage"]
    assert v.saturated == d["saturated"] and v.independent_cells == d["independent_cells"]
    assert [o["name"] for o in d["outputs"]] == list(v.outputs)
    for o in d["outputs"]:
        assert v.outputs[o["name"]].cv_mape_pct == pytest.approx(o["cv_mape_pct"]["value"],
                                                                 rel=1e-9, abs=1e-15)
    assert len(v.rows) == len(d["rows"]) == 7  # r1..r7 (r4 without a measurement)
    for r, e in zip(v.rows, d["rows"]):
        assert (r.id, r.fold) == (e["id"], e["fold"])
        assert os.path.basename(r.data_file) == os.path.basename(e["data_file"])
        want = e["cv_mape_pct"]["value"]
        if want is None:  # no measurement in the row: null in JSON, NaN here
            assert np.isnan(r.cv_mape_pct)
        else:
            assert r.cv_mape_pct == pytest.approx(want, rel=1e-9, abs=1e-15)
    assert [(f.key, f.held_out, f.status, f.dof) for f in v.folds] == \
        [(f["key"], f["held_out"], f["status"], f["dof"]) for f in d["folds"]]
    assert v.predicted.shape == (len(v.rows), 1) and np.all(v.lo[v.lo == v.lo] <= v.hi[v.hi == v.hi])
    assert v.worst_cell["output"] == "mean_in_system"


def test_validate_group_and_bad_scheme():
    v = z.validate(FIT_MM1, scheme="group:arrival_rate_per_s", threads=1)
    assert v.scheme == "group:arrival_rate_per_s" and len(v.folds) >= 1
    with pytest.raises(z.InvalidArgumentError, match="scheme"):
        z.validate(FIT_MM1, scheme="kfold")


def test_sensitivity_mm1_response_to_arrival_rate():
    for lam, mu in ((1.0, 4.0), (2.0, 2.5), (0.1, 10.0)):
        rho = lam / mu
        s = z.sensitivity("mmc", servers=1, arrival_rate_per_s=lam, service_rate_per_s=mu)
        # R = 1 / (mu - lambda): d ln R / d ln lambda = rho / (1 - rho), d ln R / d ln mu =
        # -1 / (1 - rho)
        assert s.elasticity["response_s"]["arrival_rate_per_s"] == \
            pytest.approx(rho / (1 - rho), rel=1e-6)
        assert s.elasticity["response_s"]["service_rate_per_s"] == \
            pytest.approx(-1 / (1 - rho), rel=1e-6)
        assert np.isnan(s.elasticity["response_s"]["servers"])
        assert "integer" in s.reasons["response_s"]["servers"]
        knives = {(o, p) for o, p, _ in s.knife_edges}
        assert (("response_s", "service_rate_per_s") in knives) == (1 / (1 - rho) > 3)


@needs_cli
def test_sensitivity_equals_cli_json():
    s = z.sensitivity(SWEET)
    d = cli_json("sensitivity", SWEET)
    for o, row in d["elasticity"].items():
        for p, e in row.items():
            if isinstance(e, float):
                assert s.elasticity[o][p] == pytest.approx(e, rel=1e-12, abs=1e-300)
            else:
                assert np.isnan(s.elasticity[o][p])
    assert sorted((k["output"], k["parameter"]) for k in d["knife_edges"]) == \
        sorted((o, p) for o, p, _ in s.knife_edges)


def test_fit_predict_with_interval_equals_eval_at_the_rows():
    fd = z.read_fit(os.path.join(CALIB, "fits", "sweetspot-zvm63.ini"))
    r = fd.predict(SWEET, interval=0.9)
    p = fd.predict(SWEET)
    assert np.array_equal(r.value["etr"], p["etr"])
    assert r["etr"].lo.shape == (len(fd.rows),)
    assert np.all(r.lo["etr"] <= r.value["etr"]) and np.all(r.value["etr"] <= r.hi["etr"])


def test_whole_number_output_has_no_delta_interval_but_says_why():
    """cms users_at_limit is a whole number (a step function of the parameters): the delta
    method's derivative is 0 there, so it gives no interval (NaN, with the reason in kinds)
    rather than the degenerate [value, value]; Monte Carlo gives a real one."""
    cms = os.path.join(CALIB, "params", "cms-releases.ini")
    d = z.eval(cms, interval=0.9)
    iv = d["users_at_limit"]
    assert np.isnan(iv.lo) and np.isnan(iv.hi) and iv.value > 0
    assert d.kinds["users_at_limit"].startswith("none") and "mc" in d.kinds["users_at_limit"]
    assert any(np.isfinite(v.lo) and v.lo < v.hi for k, v in d.items() if k != "users_at_limit")
    mc = z.eval(cms, interval=0.9, method="mc", samples=200)
    iv = mc["users_at_limit"]
    assert iv.lo <= iv.value <= iv.hi and iv.hi > iv.lo
    assert not mc.kinds["users_at_limit"].startswith("none")
