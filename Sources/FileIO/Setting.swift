import Synchronization

/// A setting a message names, so that the reader can change it: the library's callers know it by
/// its API's name (`maxPixels`), the command line's users by its flag (`--max-pixels`). Messages
/// interpolate the setting; the executable says once, at its start, that its messages name flags
/// (`Setting.nameFlags()`). Nothing else changes with it.
public enum Setting: String, Sendable, CaseIterable, CustomStringConvertible {
    case maxPixels, maxMemory, maxInputSize, timeout, overwrite, clamps, losslessExpand, lossless, keepsOrientation
    case convertsToSRGB, index, hex, header, stride, allowsTrailingBytes, npy, sandboxOff

    /// The command line's spelling.
    public var flag: String {
        switch self {
        case .maxPixels: return "--max-pixels"
        case .maxMemory: return "--max-memory"
        case .maxInputSize: return "--max-input-size"
        case .timeout: return "--timeout"
        case .overwrite: return "--overwrite"
        case .clamps: return "--clamp"
        case .losslessExpand: return "--lossless=expand"
        case .lossless: return "--lossless"
        case .keepsOrientation: return "--keep-orientation"
        case .convertsToSRGB: return "--colorspace srgb"
        case .index: return "--index"
        case .hex: return "--hex"
        case .header: return "--header"
        case .stride: return "--stride"
        case .allowsTrailingBytes: return "--allow-trailing"
        case .npy: return "--npy"
        case .sandboxOff: return "--sandbox off"
        }
    }

    /// The library's spelling: the property or parameter of `MediaToolKit` that says it.
    public var apiName: String {
        switch self {
        case .losslessExpand: return "lossless: .expand"
        case .npy: return ".npy"
        case .sandboxOff: return "sandbox: .inProcess"
        default: return rawValue
        }
    }

    public var description: String { Self.namesFlags.load(ordering: .relaxed) ? flag : apiName }

    /// From now on, messages name the command line's flags: for the executable, once, at its start.
    public static func nameFlags(_ names: Bool = true) {
        namesFlags.store(names, ordering: .relaxed)
    }

    /// Whether messages name flags now.
    public static var namesFlagsNow: Bool { namesFlags.load(ordering: .relaxed) }

    private static let namesFlags = Atomic<Bool>(false)
}
