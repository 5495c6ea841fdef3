import Foundation

/// Headless Chromium driven by `browser-check.py` (the DevTools protocol over a pipe): what a page did
/// when loaded, and the values of expressions evaluated in it afterwards.
enum Browser {
    struct Load: Decodable {
        struct Message: Decodable { var type: String; var text: String }
        var console: [Message]
        var exceptions: [String]
        /// Every request but the page's own file.
        var requests: [String]
        /// Each expression's value (expressions return strings).
        var results: [String?]
        var errors: [String] { console.filter { $0.type == "error" || $0.type == "warning" }.map(\.text) + exceptions }
    }

    /// `LANGBENCH_CHROMIUM`, or `chromium` on the PATH (scripts/setup installs Debian's).
    static let executable: String? = {
        if let path = ProcessInfo.processInfo.environment["LANGBENCH_CHROMIUM"], !path.isEmpty { return path }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return directories.map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser-check.py").path

    /// Loads `page` in a `width` × `height` px window, evaluates `expressions` in order, and writes a screenshot when asked.
    static func load(_ page: URL, evaluate expressions: [String] = [], screenshot: URL? = nil, width: Int = 1280, height: Int = 900,
                     zoom: Double = 1, media: String? = nil) throws -> Load {
        guard let executable else { throw BrowserError("no chromium: install it (scripts/setup) or set LANGBENCH_CHROMIUM") }
        var arguments = [script, executable, page.path, "--width", String(width), "--height", String(height)]
        if let screenshot { arguments += ["--screenshot", screenshot.path] }
        arguments += ["--zoom", String(zoom)] + (media.map { ["--media", $0] } ?? [])
        for expression in expressions { arguments += ["--eval", expression] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BrowserError("browser-check.py exited \(process.terminationStatus): \(message)") }
        return try JSONDecoder().decode(Load.self, from: data)
    }

    /// A JavaScript function of a filtered table: how many of its body rows match its filters, as a string, when as
    /// many are rendered as its page holds (all of them up to a page); otherwise "rendered R of M".
    static let matchingRows = """
        function(t){var r=Array.prototype.filter.call(t.tBodies[0].rows,function(r){return r.getClientRects().length>0;}).length;
        var m=Number(t.getAttribute('data-visible')),p=Number(t.getAttribute('data-page-size'))||Infinity;
        return r===Math.min(m,p)?String(m):'rendered '+r+' of '+m;}
        """

    /// JavaScript opening every folded part around the table `t`, as a reader does before using its filters.
    static let unfold = "for(var e=t;e;e=e.parentElement){if(e.tagName==='DETAILS'){e.open=true;}}"

    /// An expression that opens `table`'s folded parts, sets its filter on `column` to `value` ("" for every value)
    /// and returns how many of its body rows then match (see `matchingRows`), as a string.
    static func filter(_ table: String, _ column: String, _ value: String?) -> String {
        let json = { (text: String) in String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
        return """
        (function(){var t=document.getElementById(\(json(table)));var f=t.previousElementSibling.previousElementSibling;\(unfold)
        var s=f.querySelector('select[data-filter='+JSON.stringify(\(json(column)))+']');if(!s){return "no filter";}
        s.value=\(value.map(json) ?? "'\\u0000all'");if(s.selectedIndex<0){return "no option";}s.dispatchEvent(new Event('change'));
        return (\(matchingRows))(t);})()
        """
    }

    /// An expression that sets the side-by-side `table`'s filters (every other select to all, every other
    /// checkbox off) and returns how many of its body rows match (see `matchingRows`), and how many route × variant headers are
    /// then rendered.
    static func sideBySide(_ table: String, selects: [String: String] = [:], flags: Set<String> = []) -> String {
        let json = { (value: any Encodable) in String(decoding: try! JSONEncoder().encode(value), as: UTF8.self) }
        return """
        (function(){var t=document.getElementById(\(json(table)));var f=t.previousElementSibling.previousElementSibling;\(unfold)
        var selects=\(json(selects)),flags=\(json(flags.sorted())),last=null;
        Array.prototype.forEach.call(f.querySelectorAll('select[data-filter]'),function(s){var n=s.getAttribute('data-filter');
          s.value=n in selects?selects[n]:'\\u0000all';last=s;});
        Array.prototype.forEach.call(f.querySelectorAll('input[data-filter]'),function(c){c.checked=flags.indexOf(c.getAttribute('data-filter'))>=0;last=c;});
        var known=Object.keys(selects).concat(flags).every(function(n){return f.querySelector('[data-filter="'+n+'"]');});
        if(!known){return "no filter";}if(Array.prototype.some.call(f.querySelectorAll('select'),function(s){return s.selectedIndex<0;})){return "no option";}
        last.dispatchEvent(new Event('change'));
        var shown=function(list){return Array.prototype.filter.call(list,function(e){return e.getClientRects().length>0;}).length;};
        return (\(matchingRows))(t)+" "+shown(t.tHead.querySelectorAll('th[data-route]'));})()
        """
    }

    struct BrowserError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
