import Foundation
import Support

/// Apertium's APy translation server: one LangBench starts on a free loopback port (stopped on exit, on
/// signals and, through its watchdog, when LangBench dies), or one someone else runs.
package final class ApertiumServer: Sendable {
    package let baseURL: URL
    /// APy's version (`apertium-apy --version`); nil for a server someone else runs.
    package let version: String?
    /// Where a started server logs; nil when attached.
    package let logFile: URL?
    private let managed: ManagedProcess?

    /// Where Debian installs APy and its pairs' modes.
    package static let defaultBinary = "apertium-apy"
    package static let defaultModes = "/usr/share/apertium/modes"
    /// Where another APy script or modes directory is named.
    package static let binaryKey = "LANGBENCH_APERTIUM_APY", modesKey = "LANGBENCH_APERTIUM_MODES"

    /// `launch` with the binary and modes `environment` names, else Debian's.
    package static func launch(environment: [String: String], runDirectory: URL) async throws -> ApertiumServer {
        try await launch(binary: environment[binaryKey] ?? defaultBinary, modes: environment[modesKey] ?? defaultModes, runDirectory: runDirectory)
    }

    private init(baseURL: URL, version: String?, logFile: URL?, managed: ManagedProcess?) {
        self.baseURL = baseURL
        self.version = version
        self.logFile = logFile
        self.managed = managed
    }

    deinit { managed?.stop() }

    package func client(requestTimeout: Double = 30) -> ApertiumClient { ApertiumClient(baseURL: baseURL, requestTimeout: requestTimeout) }

    /// Whether this server is ours to stop.
    package var isManaged: Bool { managed != nil }
    /// The started server's process; nil when attached.
    package var processID: Int32? { managed?.processID }

    /// Uses an APy someone else runs, once `/listPairs` answers.
    package static func attach(to url: URL, timeout: Double = 10) async throws -> ApertiumServer {
        _ = try await ApertiumClient(baseURL: url).listPairs(timeout: timeout)
        return ApertiumServer(baseURL: url, version: nil, logFile: nil, managed: nil)
    }

    /// Starts `binary` (found on `PATH` unless a path) serving the modes in `modes`, logging to
    /// `runDirectory/apertium-apy.log`; returns once `/listPairs` answers. APy restarts a pair's pipeline that
    /// closed; `pipelineTimeout` is how long it waits for one before answering an error.
    package static func launch(binary: String = defaultBinary, modes: String = defaultModes, runDirectory: URL,
                              startupTimeout: Double = 30, pipelineTimeout: Int = 10) async throws -> ApertiumServer {
        guard let executable = Self.locate(binary) else {
            throw BackendError.startFailed(reason: binary.isEmpty ? "\(binaryKey) is empty; unset it or name APy's script"
                                            : "apertium-apy not found (\(binary)); run scripts/setup or apt-get install apertium-apy",
                                           logTail: [], logFile: nil, server: "Apertium APy")
        }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: modes, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackendError.startFailed(reason: "no apertium modes directory at \(modes); run scripts/setup (apt-get install apertium-apy and the pairs)",
                                           logTail: [], logFile: nil, server: "Apertium APy")
        }
        let (log, logFile) = try ManagedProcess.createLog("apertium-apy.log", in: runDirectory)
        defer { try? log.close() }  // try?: the child holds its own descriptor; closing ours cannot lose a line
        // Asked before the server starts, not beside it: a helper launched while APy was being launched once had
        // its exit missed by Foundation's `Process` (left a zombie; `waitUntilExit` never returned).
        let version = await Self.version(of: executable)
        let port = try FreePort.find()
        let arguments = ["-c", Self.loopbackWrapper, executable, "--port", String(port), "--timeout", String(pipelineTimeout), modes]
        let managed = try ManagedProcess.launch(try Self.interpreter(of: executable), arguments: arguments, log: log, logFile: logFile)
        let baseURL = URL(string: "http://127.0.0.1:\(port)")!
        let deadline = ContinuousClock.now + .milliseconds(Int(startupTimeout * 1000))
        do {
            while true {
                guard managed.isRunning else {
                    throw startFailure("apertium-apy exited (\(managed.terminationDescription)) before /listPairs answered", logFile: logFile)
                }
                do {
                    _ = try await ApertiumClient(baseURL: baseURL).listPairs(timeout: 2)
                    return ApertiumServer(baseURL: baseURL, version: version, logFile: logFile, managed: managed)
                } catch BackendError.connectionRefused, BackendError.timeout {
                    // Still importing and binding the port: keep polling until the deadline.
                } catch {
                    throw startFailure("/listPairs failed: \(error)", logFile: logFile)
                }
                guard ContinuousClock.now < deadline else {
                    throw startFailure("/listPairs did not answer within \(startupTimeout) s", logFile: logFile)
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        } catch {
            managed.stop()  // on every way out but the server's answer, cancellation included
            throw error
        }
    }

    /// Stops a server LangBench started (SIGTERM, then SIGKILL); nothing for one it attached to.
    package func stop() { managed?.stop() }

    private static func startFailure(_ reason: String, logFile: URL) -> BackendError {
        .startFailed(reason: reason, logTail: LogTail.read(logFile), logFile: logFile.path, server: "Apertium APy")
    }

    /// APy binds every interface and has no option to say otherwise; this runs its script with Tornado's bind held to
    /// loopback, as every server LangBench starts is.
    static let loopbackWrapper = """
        import runpy, sys, tornado.tcpserver as t
        bind = t.TCPServer.bind
        def loopback(self, port, address=None, *args, **kwargs):
            return bind(self, port, "127.0.0.1", *args, **kwargs)
        t.TCPServer.bind = loopback
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name="__main__")
        """

    /// The Python that runs `script` (its `#!` line): APy is a Python program, and the wrapper needs its interpreter.
    static func interpreter(of script: String) throws -> String {
        let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: script)).readData(ofLength: 256)) ?? Data()  // try?: unreadable is "no #! line" below
        let line = String(decoding: head.prefix { $0 != 0x0A }, as: UTF8.self)
        let interpreter = line.hasPrefix("#!") ? line.dropFirst(2).split(separator: " ").first.map(String.init) : nil
        guard let interpreter, interpreter.contains("python"), FileManager.default.isExecutableFile(atPath: interpreter) else {
            throw BackendError.startFailed(reason: "\(script) is not APy's Python script (no #! line naming a Python); LangBench runs APy through its Python to bind it to loopback",
                                           logTail: [], logFile: nil, server: "Apertium APy")
        }
        return interpreter
    }

    /// `apertium-apy --version`'s answer ("0.11.7"), nil when it gives none in time.
    static func version(of executable: String) async -> String? {
        // try?: the version is context, not a reason to stop
        let result = try? await ProcessRunner.run(executable, ["--version"], timeout: 10)
        let text = result.map { $0.standardOutput + " " + $0.standardError } ?? ""
        return text.split(whereSeparator: \.isWhitespace).first { $0.first?.isNumber == true }.map(String.init)
    }

    /// `name` as an executable path: itself when it holds a slash, else the first match on `PATH`.
    static func locate(_ name: String) -> String? { CommandLabel.locate(name) }
}
