import Support
import Foundation
import Synchronization

/// Progress on stderr: a redrawn bar with count, rate and ETA on a terminal; otherwise a plain line
/// at most every few seconds, so CI logs stay readable.
final class ProgressReporter: ProgressObserving {
    private struct State {
        var phase = ""
        var total: Int?
        var done = 0
        var started = Date()
        var lastDrawn = Date.distantPast
    }

    private let sink: any TextSink
    private let isTerminal: Bool
    private let state = Mutex(State())
    private let lineInterval: TimeInterval

    init(sink: any TextSink, isTerminal: Bool, lineInterval: TimeInterval = 5) {
        self.sink = sink
        self.isTerminal = isTerminal
        self.lineInterval = lineInterval
    }

    func begin(_ phase: String, total: Int?) {
        state.withLock { $0 = State(phase: phase, total: total, started: Date()) }
        if !isTerminal { sink.write("\(phase): started" + (total.map { " (\($0) to do)" } ?? "") + "\n") }
    }

    func advance(by count: Int) {
        let line: String? = state.withLock { state in
            state.done += count
            let now = Date()
            let interval = isTerminal ? 0.1 : lineInterval
            guard now.timeIntervalSince(state.lastDrawn) >= interval else { return nil }
            state.lastDrawn = now
            return Self.render(state, now: now, bar: isTerminal)
        }
        if let line { sink.write(isTerminal ? "\r\u{1B}[2K" + line : line + "\n") }
    }

    func end() {
        let line = state.withLock { Self.render($0, now: Date(), bar: false) + " done" }
        sink.write(isTerminal ? "\r\u{1B}[2K" + line + "\n" : line + "\n")
    }

    func note(_ message: String) {
        sink.write(message + "\n")
    }

    private static func render(_ state: State, now: Date, bar: Bool) -> String {
        let elapsed = max(now.timeIntervalSince(state.started), 0.001)
        let rate = Double(state.done) / elapsed
        var text = "\(state.phase): \(state.done)"
        if let total = state.total, total > 0 {
            let fraction = min(Double(state.done) / Double(total), 1)
            if bar {
                let width = 24
                let filled = Int(fraction * Double(width))
                text = "\(state.phase) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(state.done)/\(total)"
            } else {
                text += "/\(total)"
            }
            let remaining = rate > 0 ? Double(total - state.done) / rate : 0
            text += String(format: "  %.1f/s  ETA %@", rate, formatDuration(remaining))
        } else {
            text += String(format: "  %.1f/s", rate)
        }
        return text
    }

    static func formatDuration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%dh%02dm", s / 3600, s % 3600 / 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
