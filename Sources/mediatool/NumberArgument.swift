import ArgumentParser

/// A whole number given in decimal or, with `0x`, in hexadecimal, as od and dd users write offsets.
struct NumberArgument: ExpressibleByArgument, Sendable, Equatable {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }

    init?(argument: String) {
        let negative = argument.hasPrefix("-")
        let digits = negative ? argument.dropFirst() : argument[...]
        let parsed = digits.lowercased().hasPrefix("0x") ? Int(digits.dropFirst(2), radix: 16) : Int(digits)
        guard let parsed else { return nil }
        value = negative ? -parsed : parsed
    }

    var defaultValueDescription: String { String(value) }
}
