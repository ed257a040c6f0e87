/// Where a call decodes: in a confined worker process (the default), as GNOME's glycin loads
/// images, or in the caller's own process for input it trusts.
///
/// A worker is `mediatool` started as `mediatool __worker`: it confines itself (seccomp, Landlock,
/// its memory and CPU time limited) before it reads a byte of the file, so that a decoder's crash,
/// hang or blow-up costs the call an error, never the server. Workers are kept between calls.
public struct MediaSandbox: Sendable, Equatable, CustomStringConvertible {
    enum Choice: Equatable {
        case automatic
        case worker(String)
        case inProcess
    }

    let choice: Choice

    /// A `mediatool` beside the running program, else the first on `PATH`: found at the first call,
    /// which fails saying how to install one or opt out when there is none. The default.
    public static let automatic = MediaSandbox(choice: .automatic)

    /// The `mediatool` at `path`, which must be of the same version as this library.
    public static func worker(_ path: String) -> MediaSandbox { MediaSandbox(choice: .worker(path)) }

    /// In the calling process, with no confinement: for files the caller trusts (its own renders,
    /// say), never for uploads. A decoder's crash here ends the process.
    public static let inProcess = MediaSandbox(choice: .inProcess)

    public var description: String {
        switch choice {
        case .automatic: return "automatic"
        case .worker(let path): return "worker(\(path))"
        case .inProcess: return "inProcess"
        }
    }
}
