/// One output planned for an input, and which of the job's variants (a thumbnail's size) it holds.
public struct PlannedOutput: Sendable, Equatable {
    public var variant: String
    public var path: String

    public init(variant: String = "", path: String) {
        self.variant = variant
        self.path = path
    }
}
