import Dispatch
import Glibc
import Synchronization

/// Turns the first Ctrl-C (SIGINT) or SIGTERM into a request to stop taking new inputs; a second
/// one ends the process at once. (Unchecked: the sources are set once, in init, and only cancelled.)
final class InterruptWatch: @unchecked Sendable {
    private let requested = Atomic<Bool>(false)
    private let sources: [any DispatchSourceSignal]

    init() {
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for source in sources {
            source.setEventHandler { [self] in
                if self.requested.exchange(true, ordering: .relaxed) { _exit(130) }
            }
            source.resume()
        }
    }

    var isRequested: Bool { requested.load(ordering: .relaxed) }

    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
