#!/usr/bin/env python3
"""A real (tiny) detector speaking LangBench's JSON-lines protocol, used by tests.

It guesses by script: Cyrillic text -> the first Cyrillic candidate (or ru), Latin -> en.
Behaviour switches, for failure tests, come from the text itself:
  "@die"     exit(3) without answering     "@hang"   never answer
  "@garbage" print a non-JSON line          "@error"  answer {"id","error"}
  "@wrongid" answer with another id         "@none"   answer with no hypotheses
  "@p1.5"    answer a probability of 1.5     "@quote"  answer an error quoting the text
"""
import json, os, sys, time

DELAY = float(os.environ.get("SCRIPT_DETECTOR_DELAY", "0"))  # seconds per answer, for interrupted-run tests

print(json.dumps({"detector": "script-detector", "constraints": "applied-by-adapter"}), flush=True)
CYRILLIC = ["ru", "uk", "bg", "mk", "be", "sr", "kk"]
for line in sys.stdin:
    request = json.loads(line)
    if DELAY:
        time.sleep(DELAY)
    text, rid = request["text"], request["id"]
    if "@die" in text:
        print("dying on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    if "@hang" in text:
        time.sleep(3600)
    if "@garbage" in text:
        print("this is not json", flush=True)
        continue
    if "@error" in text:
        print(json.dumps({"id": rid, "error": "cannot decide"}), flush=True)
        continue
    if "@quote" in text:
        print(json.dumps({"id": rid, "error": f"cannot decide on {text!r} ({json.dumps(text)})"}), flush=True)
        continue
    if "@wrongid" in text:
        print(json.dumps({"id": rid + "x", "hypotheses": []}), flush=True)
        continue
    if "@p1.5" in text:
        print(json.dumps({"id": rid, "hypotheses": [{"lang": "en", "p": 1.5}]}), flush=True)
        continue
    if "@none" in text:
        print(json.dumps({"id": rid, "hypotheses": []}), flush=True)
        continue
    candidates = request.get("candidates") or []
    if any("\u0400" <= ch <= "\u04ff" for ch in text):
        lang = next((c for c in candidates if c in CYRILLIC), "ru")
    else:
        lang = "en"
    print(json.dumps({"id": rid, "hypotheses": [{"lang": lang, "p": 0.9}, {"lang": "de", "p": 0.1}]}), flush=True)
