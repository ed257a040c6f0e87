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
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: ./values.txt: output is an input: ./values.txt (inputs are never written to)"])
        #expect(try Data(contentsOf: input) == Data("1 2 3".utf8))
    }
}
