import Testing
import FFmpeg

@Suite struct TimeSpecTests {
    @Test(arguments: [
        ("35", TimeSpec.seconds(35)), ("35.2", .seconds(35.2)), ("1:02.5", .seconds(62.5)),
        ("00:01:02.500", .seconds(62.5)), ("1:00:00", .seconds(3600)), ("10%", .fraction(0.1)),
        ("0", .seconds(0)), ("100%", .fraction(1)), ("0.5%", .fraction(0.005)),
    ])
    func accepted(text: String, expected: TimeSpec) {
        #expect(TimeSpec(parsing: text) == expected)
    }

    @Test(arguments: ["", "-1", "1:60", "1:2:3:4", "abc", "1e3", "101%", "%", ".", "1::2", "+5", "1:-5", "nan", " 1",
                      // Found by fuzzing: 365 digits read as infinity.
                      String(repeating: "9", count: 365), "1000000001", "277778:0:0"])
    func refused(text: String) {
        #expect(TimeSpec(parsing: text) == nil)
    }
}
