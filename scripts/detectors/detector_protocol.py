"""Shared plumbing of the peer-detector adapters in this folder (see README.md here).

Each adapter is a small executable that re-executes itself inside its own project-local virtualenv
(`.venv-detectors/<name>/`, created and filled from PyPI on first use), prints one metadata line and then
answers the JSON-lines protocol of `langbench detect` on stdin/stdout:

  request   {"id": "1", "text": "...", "candidates": ["ru", "uk"] | null, "hints": {"ru": 0.5}}
  response  {"id": "1", "hypotheses": [{"lang": "ru", "p": 0.93}, ...]}  or  {"id": "1", "error": "..."}
  metadata  {"detector": "lingua", "version": "...", "constraints": "native|applied-by-adapter",
             "hints": "applied-by-adapter", ...}   (first line, no "id")

Hints follow the built-in recognizer's rule: p ∝ score × weight, a language without a hint weighs 1/N for
N candidates, renormalised over the candidates.
"""
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def ensure_venv(name, requirements, script):
    """Re-executes `script` inside .venv-detectors/<name>, creating it with `requirements` first."""
    venv = os.path.join(os.environ.get("LANGBENCH_DETECTOR_VENVS", os.path.join(REPO, ".venv-detectors")), name)
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    stamp = os.path.join(venv, ".requirements")
    wanted = "\n".join(requirements)
    if not (os.path.exists(stamp) and open(stamp).read() == wanted):
        log(name, f"creating {venv} with {' '.join(requirements)} (first use)")
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements],
                       check=True, stdout=sys.stderr)
        with open(stamp, "w") as f:
            f.write(wanted)
    os.execv(python, [python, script, *sys.argv[1:]])


def log(name, message):
    print(f"[{name}] {message}", file=sys.stderr, flush=True)


def apply_candidates_and_hints(scores, candidates, hints):
    """Restricts `scores` ({lang: score ≥ 0}) to the candidates, multiplies by the hint weights and
    renormalises; returns ranked [{"lang", "p"}] (empty when nothing remains)."""
    if candidates is not None:
        scores = {lang: s for lang, s in scores.items() if lang in candidates}
    n = len(candidates) if candidates is not None else max(len(scores), 1)
    weighted = {lang: s * hints.get(lang, 1.0 / n) for lang, s in scores.items() if s > 0}
    total = sum(weighted.values())
    if total <= 0:
        return []
    ranked = sorted(weighted.items(), key=lambda kv: (-kv[1], kv[0]))
    return [{"lang": lang, "p": w / total} for lang, w in ranked]


def serve(metadata, identify):
    """Prints the metadata line, then answers requests until stdin closes. `identify(text, candidates,
    hints)` returns the hypotheses list; any exception becomes an error answer for that item."""
    out = sys.stdout
    out.write(json.dumps(metadata, sort_keys=True) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            hypotheses = identify(request.get("text", ""), request.get("candidates"), request.get("hints") or {})
            answer = {"id": request_id, "hypotheses": hypotheses}
        except Exception as error:  # one bad item must not end the run
            answer = {"id": request_id, "error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
