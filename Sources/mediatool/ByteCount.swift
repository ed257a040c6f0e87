import ArgumentParser

/// A number of bytes given as `1073741824`, `512K`, `512M` or `2G` (powers of 1024).
struct ByteCount: ExpressibleByArgument, CustomStringConvertible {
    let bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [Character: Int] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var digits = Substring(argument)
        var shift = 0
        if let last = digits.last?.uppercased().first, let unitShift = units[last] {
            shift = unitShift
            digits = digits.dropLast()
        }
        guard let value = Int(digits), value > 0, value <= Int.max >> shift else { return nil }
        bytes = value << shift
    }

    var description: String {
        for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes)"
    }

    var defaultValueDescription: String { description }
}
