"""Every dependency's lower bound is one CI tests: .ci/lowest-versions.txt (what CI's oldest stage installs
with `pip -c`) pins each package to exactly the `>=` bound pyproject.toml gives it, and no requirement has
an upper bound (a release that breaks eagerflow must turn CI red, not be hidden from users).
Read from the files as text and TOML: nothing is installed or imported."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# An upper bound needs a known break and its reason here, e.g. {"somepkg": "2.0 removed X (issue N)"}.
UPPER_BOUNDS_WITH_A_REASON: dict = {}


def _requirements() -> list:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        found.extend(extra)
    return found


def _split(requirement: str):
    name, spec = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", requirement).groups()
    return name.lower().replace("_", "-"), spec


def _pins() -> dict:
    pins = {}
    for line in (ROOT / ".ci" / "lowest-versions.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def _same_version(a, b) -> bool:
    """1.26 and 1.26.0 name the same release."""
    def parts(v):
        out = [int(p) if p.isdigit() else p for p in str(v).split(".")]
        while out and out[-1] == 0:
            out.pop()
        return out
    return a is not None and parts(a) == parts(b)


def test_every_requirement_has_a_lower_bound_that_ci_installs():
    pins = _pins()
    for requirement in _requirements():
        name, spec = _split(requirement)
        bound = re.search(r">=\s*([0-9][0-9A-Za-z.]*)", spec)
        assert bound, f"{requirement!r} in pyproject.toml has no lower bound (>=)"
        assert _same_version(pins.get(name), bound.group(1)), (
            f"{name}: pyproject.toml allows >={bound.group(1)} but .ci/lowest-versions.txt pins {pins.get(name)}")


def test_no_requirement_has_an_upper_bound_without_a_reason():
    for requirement in _requirements():
        name, spec = _split(requirement)
        if re.search(r"<|~=|==", spec):
            assert name in UPPER_BOUNDS_WITH_A_REASON, f"{requirement!r} caps a version with no known break"


def test_ci_pins_nothing_that_pyproject_does_not_name():
    names = {_split(r)[0] for r in _requirements()}
    # jax's own compiled half is named by the xla extra; anything else pinned must be a dependency of ours
    assert set(_pins()) - names == set()


def test_ci_runs_the_oldest_stage_with_these_pins_and_every_extra():
    script = (ROOT / ".ci" / "run").read_text()
    assert "-c .ci/lowest-versions.txt" in script
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    stage_extras = re.findall(r"ALL_EXTRAS=\"([a-z0-9,]+)\"", script)
    assert stage_extras and set(stage_extras[0].split(",")) == set(extras)


def test_a_requirement_with_an_environment_marker_keeps_its_lower_bound():
    """uvloop (eagerflow[serve]) is not built for Windows: its marker must not hide or alter the bound."""
    marked = [r for r in _requirements() if ";" in r]
    assert any(_split(r)[0] == "uvloop" for r in marked)
    for requirement in marked:
        name, spec = _split(requirement)
        bound = re.search(r">=\s*([0-9][0-9A-Za-z.]*)", spec.split(";", 1)[0])
        assert bound and _same_version(_pins().get(name), bound.group(1)), requirement
