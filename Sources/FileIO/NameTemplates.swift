/// Filling in the name templates of outputs (`--name`, an ingest recipe's names): one place for
/// every module that does.
extension String {
    /// Each `{key}` of `values` replaced by its value, in one pass over the text: what a value holds
    /// is never read for placeholders.
    public func replacingPlaceholders(_ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(self)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            if let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// Every `target` replaced by `replacement`, left to right.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
