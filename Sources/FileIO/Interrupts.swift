import Dispatch
import Glibc
import Synchronization

/// Turns the first Ctrl-C (SIGINT) or SIGTERM into a request to stop taking new work, and makes
/// sure the process ends soon after all the same: once `grace` seconds have passed, or at a second
/// signal, the temporaries of unfinished outputs are removed and the process exits with 128 + the
/// signal's number (130, 143), even while a long input is still being read. (Unchecked: the sources
/// are set once, in init, and only cancelled.)
public final class Interrupts: @unchecked Sendable {
    private let received = Atomic<Int32>(0)
    private let sources: [any DispatchSourceSignal]

    /// `grace`: how long work in progress may go on after the first signal.
    public init(grace: Double = 1) {
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: signalNumber, queue: .global()))
        }
        self.sources = sources
        for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [self] in
                let (first, _) = self.received.compareExchange(expected: 0, desired: signalNumber, ordering: .relaxed)
                guard first else { Self.end(status: Self.exitStatus(for: self.received.load(ordering: .relaxed))) }
                if grace <= 0 { Self.end(status: Self.exitStatus(for: signalNumber)) }
                DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                    Self.end(status: Self.exitStatus(for: signalNumber))
                }
            }
            source.resume()
        }
    }

    /// True once a signal asked to stop.
    public var isRequested: Bool { received.load(ordering: .relaxed) != 0 }

    /// The exit status the signal received calls for, or nil when none came.
    public var exitStatus: Int32? {
        let signalNumber = received.load(ordering: .relaxed)
        return signalNumber == 0 ? nil : Self.exitStatus(for: signalNumber)
    }

    public static func exitStatus(for signalNumber: Int32) -> Int32 { 128 + signalNumber }

    /// Stops listening: the signals have their default effect again.
    public func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    private static func end(status: Int32) -> Never {
        AtomicOutputFile.removeUnfinishedTemporaries()
        _exit(status)
    }
}
