"""zvmperf.claims: evaluate() on the fixtures of tests/data/claims (values by hand: M/M/2 at
lambda = mu = 1 has Erlang C = 1/3 and R = 4/3; M/M/1 at lambda 0.5, mu 1 has R = 2) and on
files written here; errors raise the matching exception."""
import os

import pytest

from conftest import CALIB, REPO
from zvmperf import claims, errors

DATA = os.path.join(REPO, "tests", "data", "claims")
HEADER = "id,kind,source,statement,lhs,relation,rhs,tolerance\n"


@pytest.fixture
def in_repo(monkeypatch):
    """The fixtures name their model file relative to the repository root."""
    monkeypatch.chdir(REPO)


def test_pass_and_fail(in_repo):
    res = claims.evaluate(["tests/data/claims/fail.csv", "tests/data/claims/pass.csv"])
    by_id = {r["id"]: r for r in res}
    assert [r["id"] for r in res][:3] == ["901-holds", "901-wrong", "901-unstable"]
    assert len(res) == 7
    mm2 = by_id["900-mm2-response"]
    assert mm2["pass"] is True and mm2["reason"] is None
    assert mm2["lhs"]["value"] == pytest.approx(4 / 3, rel=1e-12)
    assert mm2["rhs"]["value"] == pytest.approx(4 / 3, rel=1e-12)
    assert mm2["kind"] == "fitted" and mm2["line"] == 5
    assert by_id["900-mm1-response"]["tolerance"] == "0.1%"
    assert by_id["900-mm1-response"]["tolerance_value"] == pytest.approx(0.002, rel=1e-12)
    wrong = by_id["901-wrong"]
    assert wrong["pass"] is False and "tolerance" in wrong["reason"]
    unstable = by_id["901-unstable"]
    assert unstable["pass"] is False and unstable["lhs"]["value"] is None
    assert "no steady state" in unstable["reason"]
    assert by_id["900-ratio"]["tolerance"] is None and by_id["900-ratio"]["tolerance_value"] is None
    assert sum(r["kind"] == "predicted" for r in res) == 5


def test_search_dirs(tmp_path):
    (tmp_path / "mine.ini").write_text("[model]\nname = mmc\n[parameters]\n"
                                       "arrival_rate_per_s = 1\nservers = 2\n")
    f = tmp_path / "c.csv"
    f.write_text(HEADER + "007-a,predicted,t,s,mine:wait_s,~,1/3,1e-12\n")
    (r,) = claims.evaluate(str(f), search_dirs=[str(tmp_path)])
    assert r["pass"] and r["lhs"]["value"] == pytest.approx(1 / 3, rel=1e-12)
    with pytest.raises(errors.NotFoundError, match="c.csv:2: claim 007-a"):
        claims.evaluate(str(f), search_dirs=[str(tmp_path / "none")])


@pytest.mark.parametrize("row, exc, words", [
    ("007-a,guess,t,s,1,<,2,", errors.ParseError, "kind 'guess'"),
    ("007-a,fitted,t,s,1,~,2,", errors.ParseError, "needs a tolerance"),
    ("007-a,fitted,t,s,1,<,2,3", errors.ParseError, "inequality"),
    ("007-a,fitted,t,s,mmc:nosuch,<,2,", errors.NotFoundError, "nosuch"),
    ("007-a,fitted,t,s,mmc:wait_s[servers=0],<,2,", errors.InvalidArgumentError, "servers = 0"),
])
def test_errors(tmp_path, row, exc, words):
    f = tmp_path / "c.csv"
    f.write_text(HEADER + row + "\n")
    with pytest.raises(exc, match=words):
        claims.evaluate(f)


def test_shipped_paging_claims(in_repo):
    """The paging claims of report 000 hold against the calibrated files."""
    res = claims.evaluate(os.path.join(CALIB, "claims", "000_paging.csv"))
    assert res and all(r["pass"] for r in res), [r for r in res if not r["pass"]]
