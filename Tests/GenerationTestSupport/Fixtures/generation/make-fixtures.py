import json, random
def stage(ms, ttft, prompt, comp, cached=0):
    tpot = round((ms - ttft) / (comp - 1), 4) if comp > 1 else None
    d = {"ms": ms, "ttft_ms": ttft, "prompt_tokens": prompt, "prompt_n": prompt - cached, "cache_n": cached, "completion_tokens": comp}
    if tpot is not None: d["tpot_ms"] = tpot
    return d
def records(slow_pivot=1.0, extra_timeouts=0, seed=7):
    rnd = random.Random(seed)
    out = []
    langs = ["bg", "de", "en", "ru"]
    for lang in langs:
        for i in range(12):
            item = f"cp-{lang}-{i+1:02d}"
            order = "direct-first" if i % 2 == 0 else "pivot-first"
            detected = "ru" if (lang == "bg" and i < 8) else lang
            for route in ["direct", "pivot"]:
                r = {"item_id": item, "lang": lang, "detected_lang": detected, "route": route, "repeat": 0, "route_order": order,
                     "cache_policy": "cold", "outcome": "model", "history": "none", "detect_ms": 0.1,
                     "reply_lang": detected, "reply_lang_ok": True}
                comp = 8 + (i * 3) % 17
                gen_ms = round(30 + comp * 14 + rnd.uniform(-5, 5), 1)
                gen_ttft = round(25 + rnd.uniform(0, 6), 1)
                if route == "direct" or lang == "en":
                    g = stage(gen_ms, gen_ttft, 80 + i, comp)
                    r["generate"] = g
                    total = round(0.1 + gen_ms + 0.4, 1)
                    r["ttft_ms"] = round(gen_ttft + 0.1, 1)
                    r["prompt_tokens"], r["completion_tokens"] = g["prompt_tokens"], comp
                    last = comp
                else:
                    tin = stage(round((60 + comp * 9) * slow_pivot, 1), 30.0, 120, comp)
                    g = stage(round(gen_ms * slow_pivot, 1), gen_ttft, 70 + i, comp + 4)
                    tout = stage(round((70 + comp * 10) * slow_pivot, 1), 32.0, 130, comp + 2)
                    r["translate_in"], r["generate"], r["translate_out"] = tin, g, tout
                    before = round(0.1 + tin["ms"] + g["ms"] + 0.5, 1)
                    total = round(before + tout["ms"] + 0.3, 1)
                    r["ttft_ms"] = round(before + 32.0, 1)
                    r["prompt_tokens"] = 120 + 70 + i + 130
                    r["completion_tokens"] = comp + comp + 4 + comp + 2
                    last = comp + 2
                r["total_ms"] = total
                r["tpot_ms"] = round((total - r["ttft_ms"]) / (last - 1), 4)
                r["generate_tokens_per_second"] = 70.0
                fail = None
                if route == "direct" and lang in ("ru", "bg") and i % 2 == 0: fail = "wrong-output-language"
                if route == "direct" and lang == "de" and i < extra_timeouts: fail = "timeout"
                if fail:
                    r["outcome"] = "fallback"; r["fallback_reason"] = fail
                    r.pop("ttft_ms"); r.pop("tpot_ms")
                    if fail == "wrong-output-language":
                        r["reply_lang"] = "en"; r["reply_lang_ok"] = False
                        r["error_message"] = f"reply detected as en, expected {detected}"
                    else:
                        r.pop("reply_lang"); r.pop("reply_lang_ok"); r.pop("generate")
                        r["error_message"] = "request timed out after 30 s"
                detected_right = detected == lang
                if r["outcome"] == "model" and detected_right:
                    r["served_in_own_language"] = True
                else:
                    r["served_in_own_language"] = False
                    r["not_served_reason"] = "misdetected" if not detected_right else r["fallback_reason"]
                out.append(r)
    for k in range(2):
        for route in ["direct", "pivot"]:
            out.append({"item_id": f"crisis-ru-{k+1:02d}", "lang": "ru", "detected_lang": "ru", "route": route, "repeat": 0,
                        "route_order": "direct-first" if k == 0 else "pivot-first", "cache_policy": "cold", "outcome": "fallback",
                        "fallback_reason": "crisis-protocol", "history": "none", "total_ms": 0.1, "detect_ms": 0.1,
                        "prompt_tokens": 0, "completion_tokens": 0})
    out.sort(key=lambda r: (r["item_id"], r["route"], r["repeat"]))
    return out
d = "Tests/GenerationTestSupport/Fixtures/generation/"
with open(d + "base.jsonl", "w") as f:
    for r in records(): f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
with open(d + "current.jsonl", "w") as f:
    for r in records(slow_pivot=1.4, extra_timeouts=8, seed=8): f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
