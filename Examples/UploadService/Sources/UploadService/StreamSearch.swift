/// A search for one byte string in a stream that comes in chunks of any size, that goes on from
/// where the last chunk left it: each byte is looked at once, however the stream is cut (a form
/// sent one byte a chunk was searched again from its start at every chunk, in time that grew
/// with the square of its length). Knuth, Morris and Pratt's search: when a partial match fails,
/// the table says how much of it can still be the start of one, so nothing is read again.
struct StreamSearch {
    let pattern: [UInt8]
    /// For each length of partial match, the longest proper prefix of it that is also its suffix.
    private let fallback: [Int]
    /// How many of the pattern's first bytes the stream's last bytes are.
    private(set) var matched = 0

    init(_ pattern: [UInt8]) {
        precondition(!pattern.isEmpty)
        self.pattern = pattern
        var fallback = [Int](repeating: 0, count: pattern.count)
        var length = 0
        for index in 1..<pattern.count {
            while length > 0 && pattern[index] != pattern[length] { length = fallback[length - 1] }
            if pattern[index] == pattern[length] { length += 1 }
            fallback[index] = length
        }
        self.fallback = fallback
    }

    /// Reads `bytes` from `start` on: the index just past the pattern's end if it ends there (the
    /// search starts anew after it), else nil, all of them read and `matched` what may begin it.
    mutating func scan(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            while matched > 0 && pattern[matched] != byte { matched = fallback[matched - 1] }
            if pattern[matched] == byte { matched += 1 }
            if matched == pattern.count {
                matched = 0
                return index
            }
        }
        return nil
    }
}
