#!/usr/bin/env python3
"""Loads one HTML file in headless Chromium over the DevTools protocol (on --remote-debugging-pipe, so no
port and no WebSocket) and prints one JSON object: the console messages and uncaught exceptions, every
network request other than the page itself, the value of each expression given, and, with --screenshot,
a PNG of the page at --width pixels. Standard library only.

usage: browser-check.py CHROMIUM PAGE.html [--screenshot OUT.png] [--width 1280] [--height 900] [--zoom 1] [--media print] [--eval EXPR]...
"""
import base64, json, os, subprocess, sys, tempfile, time


def main():
    args = sys.argv[1:]
    chromium, page = args[0], os.path.abspath(args[1])
    screenshot, width, height, zoom, media, expressions, i = None, 1280, 900, 1.0, None, [], 2
    while i < len(args):
        if args[i] == "--screenshot": screenshot = args[i + 1]
        elif args[i] == "--width": width = int(args[i + 1])
        elif args[i] == "--height": height = int(args[i + 1])
        elif args[i] == "--zoom": zoom = float(args[i + 1])
        elif args[i] == "--media": media = args[i + 1]
        elif args[i] == "--eval": expressions.append(args[i + 1])
        else: sys.exit("unknown argument " + args[i])
        i += 2
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()

    def wire():  # Chromium reads commands on fd 3 and writes replies on fd 4
        read_end, write_end = os.dup(to_browser_r), os.dup(from_browser_w)  # neither may be clobbered by the other's dup2
        os.dup2(read_end, 3)
        os.dup2(write_end, 4)

    profile = tempfile.mkdtemp(prefix="langbench-chromium-")
    process = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
         "--user-data-dir=" + profile, "about:blank"],
        # pass_fds keeps 3 and 4 open: the child closes other descriptors after preexec_fn has wired them.
        preexec_fn=wire, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_browser_r)
    os.close(from_browser_w)
    out = os.fdopen(to_browser_w, "wb", buffering=0)
    inp = os.fdopen(from_browser_r, "rb", buffering=0)
    buffer, events, next_id = b"", [], [0]

    def read_message():
        nonlocal buffer
        while b"\0" not in buffer:
            chunk = inp.read(65536)
            if not chunk: raise SystemExit("chromium closed the DevTools pipe")
            buffer += chunk
        message, buffer = buffer.split(b"\0", 1)
        return json.loads(message)

    def send(method, params=None, session=None):
        next_id[0] += 1
        message = {"id": next_id[0], "method": method, "params": params or {}}
        if session: message["sessionId"] = session
        out.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = read_message()
            if reply.get("id") == next_id[0]:
                if "error" in reply: raise SystemExit(method + ": " + json.dumps(reply["error"]))
                return reply.get("result", {})
            events.append(reply)

    def wait_for(method, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(e.get("method") == method for e in events): return
            events.append(read_message())
        raise SystemExit("timed out waiting for " + method)

    try:
        target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            send(domain + ".enable", session=session)
        # Browser zoom at Z× lays a page out as a window Z× narrower would: the CSS viewport is width / Z.
        send("Emulation.setDeviceMetricsOverride", {"width": int(width / zoom), "height": int(height / zoom), "deviceScaleFactor": zoom, "mobile": False}, session)
        if media: send("Emulation.setEmulatedMedia", {"media": media}, session)
        url = "file://" + page
        send("Page.navigate", {"url": url}, session)
        wait_for("Page.loadEventFired")
        results = []
        for expression in expressions:
            value = send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
            if "exceptionDetails" in value:
                results.append({"error": value["exceptionDetails"].get("text", "exception")})
            else:
                results.append(value.get("result", {}).get("value"))
        if screenshot:
            shot = send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False}, session)
            with open(screenshot, "wb") as f: f.write(base64.b64decode(shot["data"]))
        send("Runtime.evaluate", {"expression": "0"}, session)  # flush events queued before this point
        console = [{"type": e["params"]["type"], "text": " ".join(str(a.get("value", a.get("description", ""))) for a in e["params"].get("args", []))}
                   for e in events if e.get("method") == "Runtime.consoleAPICalled"]
        console += [{"type": e["params"]["entry"]["level"], "text": e["params"]["entry"].get("text", "")}
                    for e in events if e.get("method") == "Log.entryAdded"]
        exceptions = [e["params"]["exceptionDetails"].get("text", "") + " " + e["params"]["exceptionDetails"].get("exception", {}).get("description", "")
                      for e in events if e.get("method") == "Runtime.exceptionThrown"]
        requests = [e["params"]["request"]["url"] for e in events
                    if e.get("method") == "Network.requestWillBeSent" and e["params"]["request"]["url"] != url]
        print(json.dumps({"console": console, "exceptions": exceptions, "requests": requests, "results": results}))
        send("Browser.close")
    finally:
        try: process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        subprocess.run(["rm", "-rf", profile])


if __name__ == "__main__":
    main()
