/// The name and version of a library the tool is linked with, as the library reports it at run time.
public struct LibraryVersion: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    public var description: String { "\(name) \(version)" }
}
