import JSON

/// What a job learned about its input, for the JSON report: named values in order.
public struct JobReport: Sendable {
    public var fields: [(name: String, value: JSONValue)]
    /// Things done other than asked, one line each.
    public var warnings: [String]

    public init(fields: [(name: String, value: JSONValue)] = [], warnings: [String] = []) {
        self.fields = fields
        self.warnings = warnings
    }
}
