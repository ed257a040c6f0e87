import Foundation
import Testing
import TestSupport

/// Binary arrays of every numeric type, records and .npy files.
@Suite struct ArrayTests {
    /// NumPy is the reference: every type in both byte orders, records packed and aligned, .npy
    /// files (C and Fortran order), and pack-array --npy read back by np.load (see the script).
    @Test func numpyReadsBackWhatDumpArrayPrintsAndPackArrayWrites() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/numpy_reference.py")
        let run = try ChildProcess.run("/usr/bin/python3", [script.path, ToolRun.executable.path, folder.path])
        #expect(run.status == 0, "\(String(decoding: run.standardOutput + run.standardError, as: UTF8.self))")
    }

    @Test func dumpArrayOfF64IsDumpDoublesByteForByte() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for options in [[], ["--columns", "3", "--index", "--hex"], ["--format", "json"], ["--stats"]] {
            let doubles = try ToolRun.run(["dump-doubles"] + options + [Fixture.path("doubles/values.bin")])
            let array = try ToolRun.run(["dump-array", "--type", "f64"] + options + [Fixture.path("doubles/values.bin")])
            #expect(array.status == 0 && array.standardOutput == doubles.standardOutput)
        }
    }

    @Test(arguments: [
        (["--type", "u8"], "1 300\n", "line 1, column 3: out of the range of u8: '300'"),
        (["--type", "u16"], "-1\n", "line 1, column 1: out of the range of u16: '-1'"),
        (["--type", "i32"], "1.5\n", "line 1, column 1: not a value of type i32: '1.5'"),
        (["--type", "f32"], "1e39\n", "line 1, column 1: out of the range of f32: '1e39'"),
        (["--type", "f16"], "1e-9\n", "line 1, column 1: out of the range of f16: '1e-9'"),
        (["--type", "f64,i32"], "1 2 3\n", "the text ends inside a record: 1 of its 2 fields"),
        // Each type's hex has its own length (it said "16 hex digits" for every type).
        (["--type", "f32", "--hex"], "1.5 0000c03f\n2.5 0000204\n", "line 2, column 5: expected 8 hex digits after the value (--hex), found '0000204'"),
        (["--type", "f16"], "[{\"value\": 1.5, \"hex\": \"003e00\"}]", "line 1, column 23: expected 4 hex digits after the value (--hex), found '003e00'"),
        (["--type", "f32"], "9e308\n", "line 1, column 1: out of the range of a double: '9e308'"),
        // An empty CSV cell would shift every field after it; empty cells after a line's last value
        // (a dump's padded last row) are fine.
        (["--type", "f64,i32"], "1,,2\n3,4\n", "line 1, column 4: an empty value before this one (a comma with nothing before it): the values after it would shift fields"),
        (["--type", "f64,i32"], "1,2\n,3\n", "line 2, column 2: an empty value before this one (a comma with nothing before it): the values after it would shift fields"),
        // A short row before other rows: its empty cells would take the next row's values.
        (["--type", "f64,i32,f64"], "1,2,3\n4,,\n5,6\n", "line 3, column 1: an empty value before this one (a comma with nothing before it): the values after it would shift fields"),
    ])
    func packArrayRefusesWhatTheTypeCannotHold(options: [String], text: String, message: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.bin").path
        let run = try ToolRun.run(["pack-array", "-o", out] + options, input: Data(text.utf8))
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: <stdin>: \(message)"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A header that lies is one line, nothing printed.
    @Test func npyHeadersThatLieAreRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func npy(_ header: String, data: Int) -> Data {
            var text = Array(header.utf8)
            text += [UInt8](repeating: 0x20, count: (64 - (10 + text.count + 1) % 64) % 64) + [0x0A]
            return Data([0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(text.count & 0xFF), UInt8(text.count >> 8)] + text
                        + [UInt8](repeating: 0, count: data))
        }
        let cases: [(String, Data, String)] = [
            ("short", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (100,), }", data: 80),
             ".npy shape needs 800 bytes of data, the file has 80"),
            ("object", npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", data: 8),
             ".npy holds Python objects (dtype 'O'), not numbers"),
            ("string", npy("{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }", data: 16),
             ".npy dtype '<U4' is not one of f8 f4 f2 i1 i2 i4 i8 u1 u2 u4 u8 b1 (or a struct of them)"),
            ("huge", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", data: 8),
             ".npy shape is larger than any file"),
            ("code", npy("{'descr': __import__('os').system('true'), 'fortran_order': False, 'shape': (1,), }", data: 8),
             ".npy header: unexpected '_'"),
            // NumPy takes a repeated key's last value; the first was read here.
            ("descr-twice", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'descr': '<i8', }", data: 8),
             ".npy header: 'descr' is given more than once"),
            ("shape-twice", npy("{'descr': '<f8', 'shape': (2,), 'fortran_order': False, 'shape': (1,), }", data: 16),
             ".npy header: 'shape' is given more than once"),
            ("order-twice", npy("{'descr': '<f8', 'fortran_order': True, 'shape': (1,), 'fortran_order': False, }", data: 8),
             ".npy header: 'fortran_order' is given more than once"),
            ("field-twice", npy("{'descr': [('x', '<f8'), ('x', '<i8')], 'fortran_order': False, 'shape': (1,), }", data: 16),
             ".npy header: field 'x' occurs more than once"),
            // NumPy refuses a header with any other key.
            ("other-key", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'note': 'x', }", data: 8),
             ".npy header: 'note' is no key of a .npy header (descr, fortran_order and shape are)"),
            // The hostile review: 'd\x65scr' is 'descr' to NumPy, which took the second one.
            ("escaped-twice", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'd\\x65scr': '<i8', }", data: 16),
             ".npy header: a string holds an escape (\\)"),
        ]
        for (name, bytes, message) in cases {
            let file = folder.appendingPathComponent("\(name).npy")
            try bytes.write(to: file)
            let run = try ToolRun.run(["dump-array", file.path])
            #expect(run.status == 1)
            #expect(run.errorLines == ["mediatool: \(file.path): \(message)"])
            #expect(run.standardOutput.isEmpty)
        }
    }
}

/// `dump-array x.npy --offset 9223372036854775807` printed everything, exit 0.
@Suite struct NPYLayoutOptionTests {
    @Test(arguments: [
        (["--offset", "9223372036854775807"], "--offset does"),
        (["--type", "i32"], "--type does"),
        (["--endian", "big"], "--endian does"),
        (["--endian", "little", "--stride", "16"], "--endian, --stride do"),
        (["--align", "natural", "--type", "f64"], "--type, --align do"),
    ])
    func layoutOptionsDoNotApplyToANPYFile(options: [String], named: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let npy = folder.appendingPathComponent("x.npy").path
        #expect(try ToolRun.run(["pack-array", "--type", "f64", "--npy", "-", "-o", npy], input: Data("1 2.5\n".utf8)).status == 0)
        let run = try ToolRun.run(["dump-array"] + options + [npy])
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: \(named) not apply to a .npy file, whose header gives its layout: \(npy). (see 'mediatool dump-array --help')"])
        #expect(run.standardOutput.isEmpty)
        #expect(try ToolRun.run(["dump-array", npy]).output == "1.0\n2.5\n")
    }
}

@Suite struct ArrayStatisticsTests {
    /// A summary a field, integers' extremes as integers.
    @Test func recordsAreSummarisedFieldByField() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("r.bin")
        // (f32 1.5, i16 -3), (f32 -2.5, i16 7)
        try Data([0, 0, 0xC0, 0x3F, 0xFD, 0xFF, 0, 0, 0x20, 0xC0, 7, 0]).write(to: file)
        let run = try ToolRun.run(["dump-array", "--type", "f32,i16", "--names", "level,step", "--stats", "--format", "json", file.path])
        #expect(run.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: [String: Any]])
        #expect(report["level"]?["min"] as? Double == -2.5 && report["level"]?["max"] as? Double == 1.5)
        #expect(report["step"]?["min"] as? Int == -3 && report["step"]?["max"] as? Int == 7)
        #expect(run.output.contains("\"min\":-3,"))
    }

    /// The minimum and maximum are values of the array: printed as the dump prints them, by the
    /// type's own shortest digits, not the double a Float widens to (0.20000000298023224).
    @Test func narrowFloatExtremesPrintAsTheirOwnDigits() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f.f32")
        // f32 0.1, 0.2, -3.5 (the bytes Python's struct.pack('<3f', ...) writes)
        try Data([0xCD, 0xCC, 0xCC, 0x3D, 0xCD, 0xCC, 0x4C, 0x3E, 0, 0, 0x60, 0xC0]).write(to: file)
        let text = try ToolRun.run(["dump-array", "--type", "f32", "--stats", file.path])
        #expect(text.status == 0)
        #expect(text.output.contains("\nmin         -3.5\nmax         0.2\n"), "\(text.output)")
        let json = try ToolRun.run(["dump-array", "--type", "f32", "--stats", "--format", "json", file.path])
        #expect(json.output.contains("\"min\":-3.5,\"max\":0.2,"), "\(json.output)")
    }
}
