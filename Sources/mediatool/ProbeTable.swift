import Batch
import JSON
import Reporting

/// probe's report for a person: a row an input, the columns a glance needs, the file last so that
/// long names do not push the others about.
enum ProbeTable {
    static let columns: [(title: String, width: Int)] = [
        ("KIND", 7), ("FORMAT", 6), ("SIZE", 11), ("ROT", 3), ("DURATION", 10), ("FRAMES", 6), ("CODEC", 10), ("HDR", 3), ("CREATED", 29),
    ]

    static var layout: ReportTable {
        ReportTable(header: line(columns.map(\.title) + ["FILE"]), row: row)
    }

    @Sendable static func row(_ fields: [(name: String, value: JSONValue)]) -> String {
        let value = { (name: String) -> JSONValue in fields.first { $0.name == name }?.value ?? .null }
        let input = text(value("input")) ?? ""
        if case .string("failed") = value("status") {
            return line(["failed"] + Array(repeating: "-", count: columns.count - 1) + [input])
        }
        var size = "-"
        if case .int(let width) = value("width"), case .int(let height) = value("height") { size = "\(width)x\(height)" }
        var duration = "-"
        if case .double(let seconds) = value("duration") { duration = SecondsText.of(seconds) + " s" }
        // A video's frames from its index, or counted with --deep; an animation's; a TIFF's pages.
        return line([text(value("kind")) ?? "-", text(value("format")) ?? "-", size, text(value("rotation")) ?? "-", duration,
                     text(value("frames")) ?? "-", text(value("codec")) ?? "-", text(value("hdr")) ?? "-", text(value("created")) ?? "-", input])
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text), .text(let text): return Diagnostics.printable(text)
        case .int(let number): return String(number)
        default: return nil
        }
    }

    private static func line(_ cells: [String]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            // Each cell padded to its column, then one space: a longer cell pushes only its row on.
            let width = index < columns.count ? columns[index].width : 0
            text += cell + String(repeating: " ", count: max(0, width - cell.count)) + " "
        }
        while text.last == " " { text.removeLast() }
        return text
    }
}
