import ImageCodecs
import Previews

/// A format a subcommand writes, as `-o`, `--name` and `--format` choose it (see `OutputOptions.format`).
protocol WrittenFormat: Equatable {
    init?(fileExtension: String)
    var rawValue: String { get }
    /// The formats, for messages: "png, jpeg and webp".
    static var supportedList: String { get }
    /// Who writes them, for messages: "mediatool", "mediatool preview".
    static var writer: String { get }
}

extension ImageFormat: WrittenFormat {
    static var writer: String { "mediatool" }
}

extension PreviewFormat: WrittenFormat {
    static var writer: String { "mediatool preview" }
}
