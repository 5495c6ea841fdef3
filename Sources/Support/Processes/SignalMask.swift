#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `spawn` with no signals blocked on the calling thread, so the child it starts does not
/// inherit a blocked mask.
///
/// Dispatch and Swift-concurrency worker threads block nearly every signal, and `posix_spawn` (under
/// Foundation's `Process`) hands the calling thread's mask to the child: a server started from an
/// async function would then never see SIGTERM or SIGINT and could only be SIGKILLed.
package func withUnblockedSignals<T>(_ spawn: () throws -> T) rethrows -> T {
    var empty = sigset_t()
    var saved = sigset_t()
    sigemptyset(&empty)
    pthread_sigmask(SIG_SETMASK, &empty, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    return try spawn()
}
