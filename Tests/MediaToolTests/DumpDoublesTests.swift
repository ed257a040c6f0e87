import Foundation
import Testing
import TestSupport

@Suite struct DumpDoublesTests {
    @Test(arguments: [
        (["Fixtures/doubles/known.bin"], "doubles/known.txt"),
        (["--endian", "big", "Fixtures/doubles/known-big.bin"], "doubles/known.txt"),
        (["--offset", "3", "Fixtures/doubles/known-offset3.bin"], "doubles/known.txt"),
        (["--columns", "4", "--index", "--hex", "Fixtures/doubles/known.bin"], "doubles/known-columns4-index-hex.txt"),
        (["--format", "csv", "--columns", "3", "--header", "Fixtures/doubles/known.bin"], "doubles/known-columns3.csv"),
        (["--format", "json", "Fixtures/doubles/known.bin"], "doubles/known.json"),
        (["--format", "json", "--columns", "5", "Fixtures/doubles/known.bin"], "doubles/known-columns5.json"),
        (["--stats", "Fixtures/doubles/stats.bin"], "doubles/stats.txt"),
    ])
    func formatsMatchTheExpectedOutput(arguments: [String], expected: String) throws {
        let run = try ToolRun.run(["dump-doubles"] + arguments.map(Self.fixturePath))
        #expect(run.status == 0)
        #expect(run.standardError == "")
        #expect(run.output == (try Fixture.text(expected)))
    }

    @Test func jsonParsesBackToTheValues() throws {
        let run = try ToolRun.run(["dump-doubles", "--format", "json", Fixture.path("doubles/known.bin")])
        let parsed = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [Any])
        let known = try Self.knownValues()
        #expect(parsed.count == known.count)
        for (item, value) in zip(parsed, known) {
            switch item {
            case let number as NSNumber:
                #expect(number.doubleValue.bitPattern == value.bitPattern, "\(value)")
            case let word as String:
                let expected = value.isNaN ? "NaN" : (value > 0 ? "Infinity" : "-Infinity")
                #expect(word == expected)
            default:
                Issue.record("unexpected JSON item \(item)")
            }
        }
    }

    @Test func severalFilesAreLabelledInTextAndJSONLines() throws {
        let known = Fixture.path("doubles/known.bin")
        let stats = Fixture.path("doubles/stats.bin")
        let text = try ToolRun.run(["dump-doubles", "--count", "2", known, stats])
        #expect(text.output == "==> \(known) <==\n0.0\n-0.0\n==> \(stats) <==\n2.0\n4.0\n")

        let json = try ToolRun.run(["dump-doubles", "--format", "json", "--count", "1", known, stats])
        let lines = json.output.split(separator: "\n")
        #expect(lines == ["{\"file\":\"\(known)\",\"values\":[0.0]}", "{\"file\":\"\(stats)\",\"values\":[2.0]}"])
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test func statsAsJSON() throws {
        let run = try ToolRun.run(["dump-doubles", "--stats", "--format", "json", Fixture.path("doubles/stats.bin")])
        #expect(run.output == """
            {"count":12,"finite":8,"min":2.0,"max":9.0,"mean":5.0,"stddev":2.0,"nan":1,"pos_inf":1,\
            "neg_inf":2,"zeros":0,"subnormals":0}

            """)
    }

    /// Every offset from 1 to 7, in both byte orders: the values after the offset, decoded exactly.
    @Test(arguments: 1...7, ["little", "big"])
    func everyOffsetInBothByteOrders(offset: Int, endian: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let values: [Double] = [1.5, -2.25, .pi, 1e300, -.leastNonzeroMagnitude]
        var bytes = [UInt8](repeating: 0xEE, count: offset)
        for value in values {
            let bits = endian == "little" ? value.bitPattern.littleEndian : value.bitPattern.bigEndian
            withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
        }
        let file = folder.appendingPathComponent("shifted.bin")
        try Data(bytes).write(to: file)
        let run = try ToolRun.run(["dump-doubles", "--offset", "\(offset)", "--endian", endian, file.path])
        #expect(run.status == 0)
        #expect(run.output == values.map { "\($0)\n" }.joined())
    }

    @Test func countAndOffsetAtTheEdges() throws {
        let known = Fixture.path("doubles/known.bin")  // 18 values, 144 bytes
        #expect(try ToolRun.run(["dump-doubles", "--count", "0", known]).output == "")
        #expect(try ToolRun.run(["dump-doubles", "--count", "1", known]).output == "0.0\n")
        #expect(try ToolRun.run(["dump-doubles", "--count", "18", known]).output == (try Fixture.text("doubles/known.txt")))
        #expect(try ToolRun.run(["dump-doubles", "--count", "1000", known]).output == (try Fixture.text("doubles/known.txt")))
        #expect(try ToolRun.run(["dump-doubles", "--offset", "136", known]).output == "nan\n")
        let atEnd = try ToolRun.run(["dump-doubles", "--offset", "144", known])
        #expect(atEnd.status == 0 && atEnd.output == "")
        let pastEnd = try ToolRun.run(["dump-doubles", "--offset", "145", known])
        #expect(pastEnd.status == 1)
        #expect(pastEnd.output == "")
        #expect(pastEnd.errorLines == ["mediatool: \(known): offset 145 is past the end (the input has 144 bytes)"])
        // A count that ends before trailing bytes needs no --allow-trailing.
        let before = try ToolRun.run(["dump-doubles", "--count", "2", Fixture.path("doubles/trailing.bin")])
        #expect(before.status == 0 && before.output == "0.0\n-0.0\n")
    }

    @Test func trailingBytesAreAnErrorWithNothingPrinted() throws {
        let trailing = Fixture.path("doubles/trailing.bin")
        let run = try ToolRun.run(["dump-doubles", trailing])
        #expect(run.status == 1)
        #expect(run.output == "")
        #expect(run.errorLines == [
            "mediatool: \(trailing): 3 trailing bytes at offset 16 do not make a whole 8-byte value "
                + "(--allow-trailing decodes the 2 whole values before them)",
        ])
    }

    @Test func allowTrailingPrintsTheWholeValuesAndWarns() throws {
        let trailing = Fixture.path("doubles/trailing.bin")
        let run = try ToolRun.run(["dump-doubles", "--allow-trailing", trailing])
        #expect(run.status == 0)
        #expect(run.output == "0.0\n-0.0\n")
        #expect(run.errorLines == ["mediatool: warning: \(trailing): ignored 3 trailing bytes at offset 16 after 2 whole values"])
    }

    @Test func emptyFileGivesNoValues() throws {
        let empty = Fixture.path("doubles/empty.bin")
        #expect(try ToolRun.run(["dump-doubles", empty]).output == "")
        #expect(try ToolRun.run(["dump-doubles", "--format", "json", empty]).output == "[]\n")
        let stats = try ToolRun.run(["dump-doubles", "--stats", empty])
        #expect(stats.status == 0)
        #expect(stats.output.contains("count       0\n") && stats.output.contains("mean        -\n"))
    }

    @Test func standardInputIsAStream() throws {
        let run = try ToolRun.run(["dump-doubles", "-"], input: try Fixture.data("doubles/known.bin"))
        #expect(run.status == 0)
        #expect(run.output == (try Fixture.text("doubles/known.txt")))

        // On a stream the length is known only at its end: the values come first, then the error.
        let trailing = try ToolRun.run(["dump-doubles", "-"], input: try Fixture.data("doubles/trailing.bin"))
        #expect(trailing.status == 1)
        #expect(trailing.output == "0.0\n-0.0\n")
        #expect(trailing.errorLines.count == 1)
        #expect(trailing.errorLines.first?.hasPrefix("mediatool: <stdin>: 3 trailing bytes at offset 16") == true)
    }

    @Test func badInputsFailOneLineEachAndTheOthersStillRun() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.bin").path
        let known = Fixture.path("doubles/known.bin")
        let run = try ToolRun.run(["dump-doubles", "--count", "1", folder.path, missing, known])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 4)
        #expect(run.errorLines.prefix(2) == [
            "mediatool: warning: \(folder.path): no files to take in this folder (--recursive takes subfolders)",
            "mediatool: \(missing): cannot open: No such file or directory",
        ])
        #expect(run.errorLines[2].hasPrefix("mediatool: summary: 1 ok, 1 failed, 0 skipped of 2 in "))
        #expect(run.errorLines[3] == "mediatool: failed: \(missing)")
        #expect(run.output == "==> \(known) <==\n0.0\n")
    }

    @Test func foldersGiveTheirBinaryFilesInOrder() throws {
        let run = try ToolRun.run(["dump-doubles", "--count", "1", "--format", "json", Fixture.path("doubles")])
        #expect(run.status == 0)  // --count 1 stops before trailing.bin's trailing bytes
        let files = run.output.split(separator: "\n").map { String($0.split(separator: "\"")[3]) }
        let folder = Fixture.path("doubles")
        #expect(files == ["empty", "known-big", "known-offset3", "known", "stats", "trailing", "values"].map { "\(folder)/\($0).bin" })
    }

    @Test(arguments: [
        ["--columns", "0"], ["--offset", "-1"], ["--count", "-1"], ["--format", "json", "--index"],
        // No file at all reads standard input when it is not a terminal (here it is /dev/null): not a usage error.
        ["--header"], ["--stats", "--hex"], ["--stats", "--format", "csv"], ["--format", "xml"], ["-", "-"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let files = arguments.isEmpty || arguments.contains("-") ? [] : [Fixture.path("doubles/known.bin")]
        let run = try ToolRun.run(["dump-doubles"] + arguments + files)
        #expect(run.status == 64)
        #expect(run.output == "")
    }

    static func fixturePath(_ argument: String) -> String {
        argument.hasPrefix("Fixtures/") ? Fixture.path(String(argument.dropFirst("Fixtures/".count))) : argument
    }

    static func knownValues() throws -> [Double] {
        let data = try Fixture.data("doubles/known.bin")
        return stride(from: 0, to: data.count, by: 8).map { offset in
            Double(bitPattern: UInt64(littleEndian: data[offset..<offset + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
        }
    }
}

/// `dump-doubles` reads a pipe when given no file, as od does; offsets and counts in hex.
@Suite struct DumpDoublesInputTests {
    static var two: Data { Data([0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0x40]) }

    @Test func aPipeIsReadWhenNoFileIsGiven() throws {
        let run = try ToolRun.run(["dump-doubles"], input: Self.two)
        #expect(run.status == 0)
        #expect(run.output == "1.0\n2.0\n")
    }

    @Test(arguments: [(["--offset", "0x8"], "2.0\n"), (["--offset", "8"], "2.0\n"), (["--count", "0x1"], "1.0\n")])
    func hexAndDecimalNumbers(options: [String], output: String) throws {
        let run = try ToolRun.run(["dump-doubles"] + options + ["-"], input: Self.two)
        #expect(run.status == 0)
        #expect(run.output == output)
    }

    @Test func aNegativeOffsetIsAUsageError() throws {
        let run = try ToolRun.run(["dump-doubles", "--offset", "-8", "-"], input: Self.two)
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: --offset must be 0 or more. (see 'mediatool dump-doubles --help')"])
    }
}

/// `dump-doubles` formats and summarises on every core, and its output is what NumPy
/// makes of the same bytes (not the same code again on one core).
@Suite struct ParallelDumpTests {
    /// 2 MiB of doubles of every class and magnitude: eight blocks, more than one worker's share.
    static func input() throws -> URL {
        let folder = try Fixture.scratchFolder()
        var generator = SplitMix64(seed: 17)
        var bytes = Data(capacity: 1 << 21)
        for index in 0..<(1 << 18) {
            var bits = generator.next()
            if index % 1000 == 7 { bits = 0x7FF8_0000_0000_0000 }
            if index % 1000 == 9 { bits = 0xFFF0_0000_0000_0000 }
            if index % 4 == 0 { bits = (Double(bitPattern: bits & 0x3FFF_FFFF_FFFF_FFFF) * 1e-3).bitPattern }
            withUnsafeBytes(of: bits.littleEndian) { bytes.append(contentsOf: $0) }
        }
        let file = folder.appendingPathComponent("values.bin")
        try bytes.write(to: file)
        return file
    }

    /// What NumPy makes of `file` with these options (Scripts/numpy_layouts.py: np.fromfile, NumPy's
    /// own shortest digits, hex from the file's bytes) against what mediatool printed on every core:
    /// a reference that is not the same code on one core.
    static func expectNumPyAgrees(_ file: URL, _ printed: Data, _ options: [String]) throws {
        let output = file.deletingLastPathComponent().appendingPathComponent("printed-\(UUID().uuidString).txt")
        try printed.write(to: output)
        defer { try? FileManager.default.removeItem(at: output) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/numpy_layouts.py")
        let check = try ChildProcess.run("/usr/bin/python3", [script.path, file.path, output.path] + options)
        #expect(check.status == 0, "\(options): \(String(decoding: check.standardOutput + check.standardError, as: UTF8.self))")
    }

    // Under the sanitizers a third of the layouts: 2 MiB formatted twice a layout is minutes of
    // instrumented formatting, and the layouts share their memory's use (`Sanitized`).
    @Test(arguments: Sanitized.sample([
        [], ["--columns", "3", "--index", "--hex"], ["--format", "csv", "--header", "--index", "--columns", "7"],
        ["--format", "json"], ["--format", "json", "--hex", "--columns", "2"], ["--endian", "big", "--offset", "3", "--count", "200001"],
        ["--stats"], ["--stats", "--format", "json"],
    ]))
    func everyCoreWritesWhatNumPyReads(options: [String]) throws {
        let file = try Self.input()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let many = try ToolRun.run(["dump-doubles"] + options + [file.path])
        #expect(many.status == 0)
        #expect(many.standardOutput.count > (options.contains("--stats") ? 100 : 1000))
        try Self.expectNumPyAgrees(file, many.standardOutput, options)
        // A stream of unknown length goes the same way.
        let piped = try ToolRun.run(["dump-doubles"] + options + ["-"], input: try Data(contentsOf: file))
        #expect(piped.standardOutput == many.standardOutput)
    }

    /// dump-array formats records and every element type on every core too, as NumPy reads them:
    /// f16 and bf16 (NumPy has none: the upper half of an f32) with their shortest digits, integers
    /// of every width, records packed, aligned and with a stride.
    @Test(arguments: Sanitized.sample([
        ["--type", "i16"], ["--type", "f32", "--columns", "3", "--index", "--hex"], ["--type", "u8", "--format", "json"],
        ["--type", "f64,i32,u16", "--format", "csv", "--header"], ["--type", "f16,i8", "--align", "natural", "--format", "json", "--hex"],
        ["--type", "bf16", "--columns", "4", "--index"], ["--type", "f16", "--format", "csv", "--header", "--index", "--hex"],
        ["--type", "bf16", "--endian", "big", "--format", "json", "--hex", "--columns", "3"],
        ["--type", "u64,i64,u32,i8", "--stride", "24", "--format", "csv", "--header", "--names", "a,b,c,d"],
        ["--type", "i8,u16", "--stride", "5", "--index", "--hex"],
    ]))
    func dumpArrayOnEveryCoreWritesWhatNumPyReads(options: [String]) throws {
        let file = try Self.input()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let many = try ToolRun.run(["dump-array", "--allow-trailing"] + options + [file.path])
        #expect(many.status == 0)
        #expect(many.standardOutput.count > 1000)
        try Self.expectNumPyAgrees(file, many.standardOutput, options)
        let piped = try ToolRun.run(["dump-array", "--allow-trailing"] + options + ["-"], input: try Data(contentsOf: file))
        #expect(piped.standardOutput == many.standardOutput)
    }
}
