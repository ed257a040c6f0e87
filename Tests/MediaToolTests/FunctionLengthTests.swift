import Foundation
import Testing

/// No Swift function in `Sources/` is longer than 120 lines (issue 53's fence): the worker loop
/// was 177 lines once, which only its author could change. A function is counted from the line
/// that declares it to the line that closes its body, comments and blank lines included.
@Suite struct FunctionLengthTests {
    static let longest = 120

    /// Each function, initializer or subscript of `lines` that has a body, with its first line
    /// and its length in lines. Braces inside string literals and comments are not counted.
    static func bodies(of lines: [Substring]) throws -> [(line: Int, length: Int)] {
        let declaration = try Regex(#"(^|[\s(])(func\s|init\s*[(<?]|init\?|deinit\b|subscript\s*[(<])"#)
        var found: [(Int, Int)] = []
        for (start, line) in lines.enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), !code.hasPrefix("///"), line.contains(declaration) else { continue }
            var depth = 0
            var opened = false
            var end = start
            scan: while end < lines.count {
                for brace in braces(in: lines[end]) {
                    depth += brace
                    opened = opened || brace > 0
                    if opened && depth == 0 { break scan }
                }
                // A declaration without a body (a protocol's) opens none in its first lines.
                if !opened && end > start + 15 { break }
                end += 1
            }
            if opened && end < lines.count { found.append((start + 1, end - start + 1)) }
        }
        return found
    }

    /// +1 for each `{` and -1 for each `}` of a line's code, outside strings and comments.
    static func braces(in line: Substring) -> [Int] {
        var result: [Int] = []
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            defer { previous = character }
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if character == "/" && previous == "/" { break }
            if character == "\"" { inString = true } else if character == "{" { result.append(1) } else if character == "}" { result.append(-1) }
        }
        return result
    }

    @Test func noFunctionIsLongerThan120Lines() throws {
        var tooLong: [String] = []
        var counted = 0
        for source in try ConcurrencyVocabularyTests.sources() {
            for body in try Self.bodies(of: source.lines) {
                counted += 1
                if body.length > Self.longest { tooLong.append("\(source.path):\(body.line): \(body.length) lines") }
            }
        }
        #expect(tooLong.isEmpty, "functions over \(Self.longest) lines:\n\(tooLong.joined(separator: "\n"))")
        // The count is a check on the counter itself: a pattern that found nothing would pass.
        #expect(counted > 1000)
    }

    @Test func theCounterFindsALongFunction() throws {
        let long = ["func long() {", "    let text = \"}\" // }"] + Array(repeating: "    work()", count: 130) + ["}"]
        let bodies = try Self.bodies(of: long.map { Substring($0) })
        #expect(bodies.map(\.length) == [133])
    }
}
