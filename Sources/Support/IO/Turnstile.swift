/// One request at a time through an actor that talks to a line-protocol child. An actor is reentrant at every
/// `await`: without a turn, a second request (detection with `--jobs 2`) sent its line and waited on the same
/// channel while the first was waiting, one waiter replaced the other, and the run hung.
///
///     if !turn.tryEnter() { await withCheckedContinuation { turn.wait($0) } }
///     defer { turn.leave() }
package struct Turnstile: Sendable {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// True when the caller has the turn now; otherwise it waits with `wait`.
    package mutating func tryEnter() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    package mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        waiting.append(continuation)
    }

    /// Hands the turn to the longest-waiting caller, if any.
    package mutating func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
