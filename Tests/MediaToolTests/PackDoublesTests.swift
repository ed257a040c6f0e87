import Foundation
import Testing
import TestSupport

@Suite struct PackDoublesTests {
    /// bytes -> dump -> pack -> the same bytes, over random bit patterns of every class.
    @Test(arguments: ["little", "big"])
    func roundTripOfRandomBitPatterns(endian: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SplitMix64(seed: endian == "little" ? 1 : 2)
        var patterns: [UInt64] = (0..<100_000).map { _ in generator.next() }
        // Each class by construction too: zeros, subnormals, normals, infinities, NaNs, both signs.
        let exponents: [UInt64] = [0, 1, 0x3FF, 0x7FE, 0x7FF]
        for sign: UInt64 in [0, 1] {
            for exponent in exponents {
                for fraction: UInt64 in [0, 1, 0xF_FFFF_FFFF_FFFF, generator.next() & 0xF_FFFF_FFFF_FFFF] {
                    patterns.append(sign << 63 | exponent << 52 | fraction)
                }
            }
        }
        var bytes = Data()
        for bits in patterns {
            withUnsafeBytes(of: endian == "little" ? bits.littleEndian : bits.bigEndian) { bytes.append(contentsOf: $0) }
        }
        let source = folder.appendingPathComponent("random.bin")
        try bytes.write(to: source)
        let packed = folder.appendingPathComponent("packed.bin")

        let dump = try ToolRun.run(["dump-doubles", "--endian", endian, source.path])
        #expect(dump.status == 0)
        let pack = try ToolRun.run(["pack-doubles", "--endian", endian, "-o", packed.path], input: dump.standardOutput)
        #expect(pack.status == 0)
        #expect(pack.standardError == "")

        let result = try Data(contentsOf: packed)
        try #require(result.count == bytes.count)
        var mismatches = 0
        for (index, original) in patterns.enumerated() {
            let raw = result[(index * 8)..<(index * 8 + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let back = endian == "little" ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw)
            // NaN payloads and signs are printed as plain `nan`: a NaN comes back as a NaN.
            let same = Double(bitPattern: original).isNaN ? Double(bitPattern: back).isNaN : back == original
            if !same { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func everyAcceptedSpelling() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("values.bin")
        let run = try ToolRun.run(["pack-doubles", Fixture.path("doubles/values.txt"), "-o", packed.path])
        #expect(run.status == 0)
        #expect(try Data(contentsOf: packed) == (try Fixture.data("doubles/values.bin")))
    }

    @Test func anInvalidTokenNamesItsLineAndColumnAndWritesNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("values.bin")
        let bad = Fixture.path("doubles/values-bad.txt")
        let run = try ToolRun.run(["pack-doubles", bad, "-o", packed.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(bad): line 2, column 7: not a number: '0x'"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test(arguments: [("1e400", "out of the range of a double: '1e400'"), ("-1e-400", "out of the range of a double: '-1e-400'"),
                      ("1..2", "not a number: '1..2'"), ("0x10", "not a number: '0x10'"), ("--1", "not a number: '--1'")])
    func numbersADoubleCannotHoldAreRefused(token: String, message: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("values.bin")
        let run = try ToolRun.run(["pack-doubles", "-o", packed.path], input: Data("1 \(token)\n".utf8))
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: <stdin>: line 1, column 3: \(message)"])
        #expect(!FileManager.default.fileExists(atPath: packed.path))
    }

    @Test func anExistingOutputIsKeptUnlessOverwriteIsGiven() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("values.bin")
        try Data("keep".utf8).write(to: packed)
        let refused = try ToolRun.run(["pack-doubles", "-o", packed.path], input: Data("1.5".utf8))
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["mediatool: \(packed.path): output exists: \(packed.path) (use --overwrite to replace it)"])
        #expect(try Data(contentsOf: packed) == Data("keep".utf8))

        let replaced = try ToolRun.run(["pack-doubles", "--overwrite", "-o", packed.path], input: Data("1.5".utf8))
        #expect(replaced.status == 0)
        #expect(try Data(contentsOf: packed) == Data([0, 0, 0, 0, 0, 0, 0xF8, 0x3F]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["values.bin"])
    }

    @Test func anInputIsNeverWrittenTo() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("values.txt")
        try Data("1 2 3".utf8).write(to: input)
        let run = try ToolRun.run(["pack-doubles", "--overwrite", input.path, "-o", "./values.txt"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: output is an input: ./values.txt (inputs are never written to) (see 'mediatool pack-doubles --help')"])
        #expect(try Data(contentsOf: input) == Data("1 2 3".utf8))
    }

    /// Every layout dump-doubles writes, one file and two, read back with the same layout options:
    /// the bytes come back, and exactly (NaN payloads too) where the hex is there to say them.
    static let layouts: [[String]] = {
        var layouts: [[String]] = []
        for columns in ["1", "3"] {
            for index in [false, true] {
                for hex in [false, true] {
                    var text = ["--columns", columns]
                    if index { text.append("--index") }
                    if hex { text.append("--hex") }
                    layouts.append(text)
                    layouts.append(["--format", "csv"] + text)
                    layouts.append(["--format", "csv", "--header"] + text)
                    if !index { layouts.append(["--format", "json"] + text) }
                }
            }
        }
        return layouts
    }()

    @Test(arguments: layouts)
    func everyDumpLayoutReadsBack(layout: [String]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Every class, a NaN with a payload and a negative NaN, and a count that ends inside a row.
        let patterns: [UInt64] = [0x3FF8_0000_0000_0000, 0x8000_0000_0000_0000, 0x7FF0_0000_0000_0000,
                                  0xFFF0_0000_0000_0000, 1, 0x7FEF_FFFF_FFFF_FFFF, 0x3FB9_9999_9999_999A,
                                  0x7FF8_0000_0000_0123, 0xFFF0_0000_0000_0001, 0]
        var bytes = Data()
        for bits in patterns { withUnsafeBytes(of: bits.littleEndian) { bytes.append(contentsOf: $0) } }
        let first = folder.appendingPathComponent("a.bin")
        let second = folder.appendingPathComponent("b.bin")
        try bytes.write(to: first)
        try bytes.prefix(16).write(to: second)
        let readOptions = layout.filter { ["--index", "--hex", "--header"].contains($0) }
        let exact = layout.contains("--hex")

        for inputs in [[first.path], [first.path, second.path]] {
            let dump = try ToolRun.run(["dump-doubles", "--quiet"] + layout + inputs)
            #expect(dump.status == 0)
            let packed = folder.appendingPathComponent("packed.bin")
            let pack = try ToolRun.run(["pack-doubles", "--overwrite", "-o", packed.path] + readOptions, input: dump.standardOutput)
            #expect(pack.status == 0, "\(layout) \(inputs.count): \(pack.standardError)")
            let expected = inputs.count == 1 ? bytes : bytes + bytes.prefix(16)
            let result = try Data(contentsOf: packed)
            try #require(result.count == expected.count)
            for offset in stride(from: 0, to: expected.count, by: 8) {
                let want = expected[offset..<(offset + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let got = result[offset..<(offset + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let same = !exact && Double(bitPattern: want).isNaN ? Double(bitPattern: got).isNaN : want == got
                #expect(same, "\(layout) value \(offset / 8): \(String(want, radix: 16)) came back as \(String(got, radix: 16))")
            }
        }
    }

    /// What a dump holds besides values and was not announced is an error with a hint, not a value.
    @Test(arguments: [
        (["--index"], [String](), "line 1, column 1: not a number: '0:' (an index? add --index)"),
        (["--hex"], [String](), "line 1, column 5: not a number: '000000000000F83F' (hex bytes? add --hex)"),
        (["--format", "csv", "--header"], [String](), "line 1, column 1: not a number: 'c0' (a csv header? add --header)"),
        ([String](), ["--header"], "line 1, column 1: expected a line naming the columns (--header), found '1.5'"),
        ([String](), ["--index"], "line 1, column 1: expected the index 0 (--index), found '1.5'"),
        ([String](), ["--hex"], "line 2, column 1: expected 16 hex digits after the value (--hex), found '-0.0'"),
    ])
    func aLayoutMismatchIsNamed(dumpOptions: [String], packOptions: [String], message: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("a.bin")
        try Data([0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0x80]).write(to: source)
        let dump = try ToolRun.run(["dump-doubles"] + dumpOptions + [source.path])
        let packed = folder.appendingPathComponent("packed.bin")
        let pack = try ToolRun.run(["pack-doubles", "-o", packed.path] + packOptions, input: dump.standardOutput)
        #expect(pack.status == 1)
        #expect(pack.errorLines == ["mediatool: <stdin>: \(message)"])
        #expect(!FileManager.default.fileExists(atPath: packed.path))
    }

    @Test func hexThatContradictsItsValueIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("packed.bin")
        let text = "1.5 000000000000F03F\n"
        let pack = try ToolRun.run(["pack-doubles", "--hex", "-o", packed.path], input: Data(text.utf8))
        #expect(pack.status == 1)
        #expect(pack.errorLines == ["mediatool: <stdin>: line 1, column 5: the bytes 000000000000F03F are not those of the value 1.5 beside them"])
    }

    /// Found by a hostile review of the Eisel-Lemire reader: digits past the largest double that
    /// it rounds to infinity were written as infinity with exit 0 (strtod's were refused); and the
    /// exact decimal of the smallest subnormal (1077 characters) was "not a number".
    @Test func decimalsPastTheLargestDoubleAreRefusedAndLongExactOnesRead() throws {
        for text in ["9e308", "1.7976931348623159e308", "-9e308", "1579126087511761954e305"] {
            let output = try ScratchOutput("o.bin")
            let run = try ToolRun.run(["pack-doubles", "-o", output.path], input: Data((text + "\n").utf8))
            #expect(run.status == 1)
            #expect(run.errorLines == ["mediatool: <stdin>: line 1, column 1: out of the range of a double: '\(text)'"])
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        let output = try ScratchOutput("s.bin")
        // 5e-324 written out (Python's Decimal(5e-324)): "0." and 1074 digits.
        let exact = "0." + String(repeating: "0", count: 323) + "4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625"
        let run = try ToolRun.run(["pack-doubles", "-o", output.path], input: Data((exact + "\n").utf8))
        #expect(run.status == 0, "\(run.errorLines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output.path)) == Data([1, 0, 0, 0, 0, 0, 0, 0]))
    }
}
