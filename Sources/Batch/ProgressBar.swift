import Glibc
import FileIO
import Reporting

/// A one-line progress bar on a terminal's standard error, redrawn in place: done/total, rate, time
/// left and failures so far. Callers serialise calls.
struct ProgressBar {
    private let total: Int
    private let started: Double
    private var lastDrawn = -1.0
    private(set) var isShown = false

    init(total: Int) {
        self.total = total
        started = Clock.seconds()
    }

    /// Redraws, at most ten times a second unless `force`. `partial`: the part done of the
    /// inputs under way that say (web videos), 0 to 1 each; `videoSeconds`: the video they made,
    /// shown as its speed (2.0x: two seconds of video a second), nil where none says.
    mutating func draw(done: Int, failed: Int, partial: Double = 0, videoSeconds: Double? = nil, force: Bool = false) {
        let now = Clock.seconds()
        guard force || now - lastDrawn >= 0.1 else { return }
        lastDrawn = now
        let elapsed = max(now - started, 1e-6)
        let rate = Double(done) / elapsed
        let width = 24
        let progress = total == 0 ? 1 : min(1, (Double(done) + partial) / Double(total))
        let filled = Int(Double(width) * progress)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var line = "\r[\(bar)] \(done)/\(total)"
        if let videoSeconds {
            // A long job under way: the part done, the video made a second, and what is left at that pace.
            line += "  \(Int(progress * 100))%  \(Self.oneDecimal(videoSeconds / elapsed))x"
            if progress > 0 && progress < 1 && partial > 0 { line += "  ETA \(Self.clock(elapsed / progress - elapsed))" }
        } else {
            line += "  \(Self.oneDecimal(rate))/s"
            if done > 0 && done < total { line += "  ETA \(Self.clock(Double(total - done) / rate))" }
        }
        if failed > 0 { line += "  \(failed) failed" }
        Diagnostics.raw(line + "\u{1B}[K")
        isShown = true
    }

    /// Clears the line, so that a message can take it.
    mutating func clear() {
        guard isShown else { return }
        Diagnostics.raw("\r\u{1B}[K")
        isShown = false
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        let padded = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(padded(minutes)):\(padded(secs))" : "\(minutes):\(padded(secs))"
    }
}
