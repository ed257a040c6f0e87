import FFmpeg
import FileIO
import ImageCodecs
import Imaging
import JSON
import PictureDigests
import Previews
import Storyboards
import VideoThumbnails
import WebVideo

extension IngestRecipe {
    /// The largest recipe read: far more than any list of renditions needs.
    public static let largestText = 1 << 20
    /// More renditions than any site shows, and few enough that one decode holds them all.
    public static let mostRenditions = 32

    /// A recipe from its JSON text. Every key is optional; one left out keeps `standard`'s value:
    ///
    ///     {
    ///       "renditions": [{"name": "thumbnail", "size": "150", "fill": "attention",
    ///                       "enlarge": false, "format": "jpeg", "quality": 82}, ...],
    ///       "format": "jpeg",              // the renditions' default: jpeg, png, webp or avif
    ///       "quality": 82,                 // the renditions' default, 1 to 100
    ///       "poster": {"at": "auto"},      // a video's frame: auto, seconds, [h:]m:s, or 10%
    ///       "storyboard": {"count": 100, "every": 2.5, "width": 160, "columns": 10, "rows": 10,
    ///                      "format": "jpeg", "quality": 90},   // or false; count or every
    ///       "preview": {"segments": 4, "seconds": 1, "fps": 10, "width": 320,
    ///                   "format": "webp", "quality": 75},      // or false
    ///       "web_video": {"always": false, "hls": false, "shorter_side": 1080, "preset": "veryfast", "crf": 23},  // or false
    ///       "placeholders": {"blurhash": [4, 3]},              // or true, or false
    ///       "hashes": true,
    ///       "names": {"rendition": "{stem}.{ext}.{name}.{format}", "storyboard": "{stem}.{ext}.storyboard.vtt",
    ///                 "preview": "{stem}.{ext}.preview.{format}", "web_video": "{stem}.{ext}.web.mp4", "hls": "{stem}.{ext}.m3u8",
    ///                 "manifest": "{stem}.{ext}.json"}
    ///     }
    public static func read(_ text: [UInt8]) throws(RecipeError) -> IngestRecipe {
        guard text.count <= largestText else { throw .unusable("is \(text.count) bytes: a recipe has at most \(largestText)") }
        let value: JSONValue
        do { value = try JSONTextParser.parse(text) } catch { throw .syntax(error) }
        var reader = try Fields(value, place: "top level", keys: ["renditions", "format", "quality", "poster", "storyboard", "preview", "web_video", "placeholders", "hashes", "original", "names"])
        var recipe = IngestRecipe.standard
        let format = try reader.take("format", renditionFormat) ?? .jpeg
        let quality = try reader.take("quality") { value, place throws(RecipeError) in try integer(value, place, 1...100) } ?? defaultQuality
        if let list = try reader.take("renditions", { value, place throws(RecipeError) in try readRenditions(value, place, format: format, quality: quality) }) {
            recipe.renditions = list
        } else {
            recipe.renditions = recipe.renditions.map { Rendition(name: $0.name, size: $0.size, format: format, quality: quality) }
        }
        if let poster = try reader.take("poster", readPosterTime) { recipe.posterTime = poster }
        if let storyboard = try reader.take("storyboard", readStoryboard) { recipe.storyboard = storyboard }
        if let preview = try reader.take("preview", readPreview) { recipe.preview = preview }
        if let webVideo = try reader.take("web_video", readWebVideo) { recipe.webVideo = webVideo }
        if let placeholders = try reader.take("placeholders", readPlaceholders) {
            recipe.digests.placeholders = placeholders != nil
            if let placeholders { (recipe.digests.blurHashComponentsX, recipe.digests.blurHashComponentsY) = (placeholders.x, placeholders.y) }
        }
        if let hashes = try reader.take("hashes", boolean) { recipe.digests.hashes = hashes }
        if let original = try reader.take("original", boolean) { recipe.writesStrippedOriginal = original }
        if let names = try reader.take("names", readNames) { recipe.names = names }
        try reader.finish()
        try recipe.checkNames()
        return recipe
    }

    /// Every output of an input has a name of its own, and a rendition's names its size or its
    /// name, so that two renditions never write one file.
    func checkNames() throws(RecipeError) {
        let templates = renditions.map { renditionTemplate($0) }
        var seen: [String: String] = [:]
        let all = [("names.manifest", names.manifest)]
            + zip(renditions, templates).map { ("renditions \"\($0.name)\" (\($0.format.rawValue))", $1) }
            + (storyboard == nil ? [] : [("names.storyboard", storyboardTemplate)])
            + (preview == nil ? [] : [("names.preview", previewTemplate)])
            + (webVideo == nil ? [] : [(webVideo?.hls == true ? "names.hls" : "names.web_video", webVideoTemplate)])
            + (writesStrippedOriginal ? [("names.original", names.original)] : [])
            + [("names.motion_video", names.motionVideo)]
        for (place, template) in all {
            if let first = seen[template] {
                throw .unusable("names two outputs \(template): \(first) and \(place) (use {name} and {format} in names.rendition)")
            }
            seen[template] = place
        }
        // A name that is another's folder would leave one of them unwritable.
        for (place, template) in all {
            if let (other, _) = all.first(where: { $0.1.hasPrefix(template + "/") }) {
                throw .unusable("names \(template) (\(place)) as a file and as a folder of \(other)")
            }
        }
        if let storyboard {
            // Its sheets at 16:9, the widest cells a storyboard makes: taller ones only make them larger.
            let format = storyboard.format
            let width = storyboard.columns * storyboard.width
            let height = storyboard.rows * Int((Double(storyboard.width) * 9 / 16).rounded(.up))
            if width > format.largestSide || height > format.largestSide || width * height > 100_000_000 {
                throw .unusable("asks for storyboard sheets of \(width)x\(height) or more, past what a sheet holds (\(format.rawValue) at most \(format.largestSide) a side, 100 million pixels): fewer \"columns\", \"rows\" or a smaller \"width\"")
            }
        }
    }

    /// A rendition's file name template, its own parts filled in (the input's are the plan's).
    public func renditionTemplate(_ rendition: Rendition) -> String {
        names.rendition.replacingEvery("{name}", with: rendition.name)
            .replacingEvery("{size}", with: rendition.size.description)
            .replacingEvery("{format}", with: rendition.format.fileExtension)
    }

    public var storyboardTemplate: String {
        names.storyboard.replacingEvery("{format}", with: "vtt")
    }

    public var previewTemplate: String {
        names.preview.replacingEvery("{format}", with: (preview ?? PreviewSettings()).format.fileExtension)
    }
}

/// The members of one object of the recipe, each taken once; those left are unknown keys.
private struct Fields {
    let place: String
    private var members: [JSONMember]
    private let keys: [String]

    /// `keys`: every key the object may have, so that a misspelt one is named before a key it
    /// should have been is found missing.
    init(_ value: JSONValue, place: String, keys: [String]) throws(RecipeError) {
        guard case .object(let members) = value else { throw .invalid(place: place, expected: "an object", found: describe(value)) }
        if let unknown = members.first(where: { !keys.contains($0.name) }) { throw .unknownKey(place: place, key: unknown.name, known: keys) }
        self.members = members
        self.place = place
        self.keys = keys
    }

    mutating func take<Value>(_ key: String, _ read: (JSONValue, String) throws(RecipeError) -> Value) throws(RecipeError) -> Value? {
        guard let index = members.firstIndex(where: { $0.name == key }) else { return nil }
        let member = members.remove(at: index)
        return try read(member.value, place == "top level" ? key : "\(place).\(key)")
    }

    /// Every member was taken (each key once: the parser refuses a name given twice).
    func finish() throws(RecipeError) {
        if let unread = members.first { throw .unknownKey(place: place, key: unread.name, known: keys) }
    }
}

private func describe(_ value: JSONValue) -> String {
    let text = value.text
    return text.count > 40 ? String(text.prefix(37)) + "..." : text
}

private func string(_ value: JSONValue, _ place: String, _ expected: String) throws(RecipeError) -> String {
    switch value {
    case .text(let text), .string(let text): return text
    default: throw .invalid(place: place, expected: expected, found: describe(value))
    }
}

private func integer(_ value: JSONValue, _ place: String, _ range: ClosedRange<Int>) throws(RecipeError) -> Int {
    guard case .int(let number) = value, range.contains(number) else {
        throw .invalid(place: place, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)", found: describe(value))
    }
    return number
}

private func number(_ value: JSONValue, _ place: String, _ range: ClosedRange<Double>) throws(RecipeError) -> Double {
    let number: Double
    switch value {
    case .int(let whole): number = Double(whole)
    case .double(let fraction): number = fraction
    default: number = .nan
    }
    guard range.contains(number) else {
        throw .invalid(place: place, expected: "a number from \(range.lowerBound) to \(range.upperBound)", found: describe(value))
    }
    return number
}

private func boolean(_ value: JSONValue, _ place: String) throws(RecipeError) -> Bool {
    guard case .bool(let flag) = value else { throw .invalid(place: place, expected: "true or false", found: describe(value)) }
    return flag
}

/// A list of formats, each once, ordered best first for a `<picture>`'s `<source>` lines (AVIF,
/// WebP, JPEG, PNG), whatever order the recipe gives them in.
private func renditionFormats(_ value: JSONValue, _ place: String) throws(RecipeError) -> [ImageFormat] {
    guard case .array(let items) = value, !items.isEmpty else {
        throw .invalid(place: place, expected: "a list of formats, such as [\"avif\", \"webp\", \"jpeg\"]", found: describe(value))
    }
    var formats: [ImageFormat] = []
    for (index, item) in items.enumerated() {
        let format = try renditionFormat(item, "\(place)[\(index)]")
        guard !formats.contains(format) else { throw .invalid(place: "\(place)[\(index)]", expected: "each format once", found: "\"\(format.rawValue)\" again") }
        formats.append(format)
    }
    return formats.sorted { $0.pictureSetRank < $1.pictureSetRank }
}

private func renditionFormat(_ value: JSONValue, _ place: String) throws(RecipeError) -> ImageFormat {
    let expected = "jpeg, png, webp or avif"
    let text = try string(value, place, expected)
    guard let format = ImageFormat(rawValue: text == "jpg" ? "jpeg" : text) else { throw .invalid(place: place, expected: expected, found: describe(value)) }
    return format
}

private func readRenditions(_ value: JSONValue, _ place: String, format: ImageFormat, quality: Int) throws(RecipeError) -> [IngestRecipe.Rendition] {
    guard case .array(let items) = value, items.count <= IngestRecipe.mostRenditions else {
        throw .invalid(place: place, expected: "a list of at most \(IngestRecipe.mostRenditions) renditions", found: describe(value))
    }
    var names: Set<String> = []
    var list: [IngestRecipe.Rendition] = []
    for (index, item) in items.enumerated() {
        var fields = try Fields(item, place: "\(place)[\(index)]", keys: ["name", "size", "fill", "enlarge", "format", "formats", "quality"])
        guard let name = try fields.take("name", { value, place throws(RecipeError) -> String in
            let name = try string(value, place, "a name of lower-case letters, digits, _ and -")
            guard !name.isEmpty, name.count <= 64, name.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else {
                throw .invalid(place: place, expected: "a name of 1 to 64 lower-case letters, digits, _ and -", found: describe(value))
            }
            return name
        }) else { throw .invalid(place: fields.place, expected: "a \"name\"", found: "none") }
        guard names.insert(name).inserted else { throw .invalid(place: "\(fields.place).name", expected: "a name no other rendition has", found: "\"\(name)\" again") }
        let enlarges = try fields.take("enlarge", boolean) ?? false
        let fill = try fields.take("fill") { value, place throws(RecipeError) -> CropGravity in
            let names = CropGravity.allCases.map(\.rawValue).joined(separator: ", ")
            let text = try string(value, place, names)
            guard let gravity = CropGravity(rawValue: text == "center" ? "centre" : text) else { throw .invalid(place: place, expected: names, found: describe(value)) }
            return gravity
        }
        guard let size = try fields.take("size", { value, place throws(RecipeError) -> ThumbnailSize in
            let expected = "a size such as \"150\" (a 150x150 box), \"300x200\", \"768x\" or \"x600\""
            let text: String
            if case .int(let number) = value { text = String(number) } else { text = try string(value, place, expected) }
            guard let size = ThumbnailSize(parsing: text, enlarges: enlarges) else { throw .invalid(place: place, expected: expected, found: describe(value)) }
            return size
        }) else { throw .invalid(place: fields.place, expected: "a \"size\"", found: "none") }
        if fill != nil && (size.width == nil || size.height == nil) {
            throw .invalid(place: "\(fields.place).fill", expected: "a size that is a box (\"150\" or \"300x200\") to fill", found: "\"\(size.description)\"")
        }
        let ownFormat = try fields.take("format", renditionFormat)
        // A `<picture>` set: the one reduction written in each format, one rendition each, best first.
        let formats = try fields.take("formats", renditionFormats)
        if ownFormat != nil && formats != nil {
            throw .invalid(place: fields.place, expected: "\"format\" or \"formats\"", found: "both")
        }
        let ownQuality = try fields.take("quality") { value, place throws(RecipeError) in try integer(value, place, 1...100) } ?? quality
        try fields.finish()
        for format in formats ?? [ownFormat ?? format] {
            list.append(IngestRecipe.Rendition(name: name, size: ThumbnailSize(width: size.width, height: size.height, enlarges: enlarges, fill: fill),
                                               format: format, quality: ownQuality))
        }
    }
    guard list.count <= IngestRecipe.mostRenditions else {
        throw .invalid(place: place, expected: "at most \(IngestRecipe.mostRenditions) files in all", found: "\(list.count) (each format of a rendition is one)")
    }
    return list
}

private func readPosterTime(_ value: JSONValue, _ place: String) throws(RecipeError) -> ThumbnailTime {
    var fields = try Fields(value, place: place, keys: ["at"])
    let time = try fields.take("at") { value, place throws(RecipeError) -> ThumbnailTime in
        let expected = "auto, seconds (35.2), a timestamp (\"1:02.5\") or a percentage (\"10%\")"
        let text: String
        switch value {
        case .int(let whole): text = String(whole)
        case .double(let fraction): text = String(fraction)
        default: text = try string(value, place, expected)
        }
        guard let time = ThumbnailTime(parsing: text) else { throw .invalid(place: place, expected: expected, found: describe(value)) }
        return time
    } ?? .posterFrame
    try fields.finish()
    return time
}

/// `false`: none; an object: its settings over the defaults.
private func optionalObject<Settings>(_ value: JSONValue, _ place: String, defaults: Settings, keys: [String],
                                      _ read: (inout Fields, inout Settings) throws(RecipeError) -> Void) throws(RecipeError) -> Settings? {
    switch value {
    case .bool(false): return nil
    case .bool(true): return defaults
    case .object:
        var fields = try Fields(value, place: place, keys: keys)
        var settings = defaults
        try read(&fields, &settings)
        try fields.finish()
        return settings
    default: throw .invalid(place: place, expected: "an object of settings, true or false", found: describe(value))
    }
}

private func readStoryboard(_ value: JSONValue, _ place: String) throws(RecipeError) -> IngestRecipe.StoryboardSettings? {
    try optionalObject(value, place, defaults: IngestRecipe.StoryboardSettings(),
                       keys: ["count", "every", "width", "columns", "rows", "format", "quality"]) { fields, settings throws(RecipeError) in
        let count = try fields.take("count") { value, place throws(RecipeError) in try integer(value, place, 1...FrameSchedule.maxFrames) }
        let every = try fields.take("every") { value, place throws(RecipeError) in try number(value, place, 0.001...86_400) }
        if count != nil && every != nil { throw .invalid(place: "\(fields.place)", expected: "\"count\" or \"every\"", found: "both") }
        if let count { settings.selection = .count(count) }
        if let every { settings.selection = .every(every) }
        if let width = try fields.take("width", { value, place throws(RecipeError) in try integer(value, place, 16...1920) }) { settings.width = width }
        if let columns = try fields.take("columns", { value, place throws(RecipeError) in try integer(value, place, 1...100) }) { settings.columns = columns }
        if let rows = try fields.take("rows", { value, place throws(RecipeError) in try integer(value, place, 1...100) }) { settings.rows = rows }
        if let format = try fields.take("format", renditionFormat) { settings.format = format }
        if let quality = try fields.take("quality", { value, place throws(RecipeError) in try integer(value, place, 1...100) }) { settings.quality = quality }
    }
}

private func readPreview(_ value: JSONValue, _ place: String) throws(RecipeError) -> IngestRecipe.PreviewSettings? {
    try optionalObject(value, place, defaults: IngestRecipe.PreviewSettings(),
                       keys: ["segments", "seconds", "fps", "width", "format", "quality"]) { fields, settings throws(RecipeError) in
        if let segments = try fields.take("segments", { value, place throws(RecipeError) in try integer(value, place, 1...20) }) { settings.segments = segments }
        if let seconds = try fields.take("seconds", { value, place throws(RecipeError) in try number(value, place, 0.1...10) }) { settings.seconds = seconds }
        if let fps = try fields.take("fps", { value, place throws(RecipeError) in try number(value, place, 1...30) }) { settings.fps = fps }
        if let width = try fields.take("width", { value, place throws(RecipeError) in try integer(value, place, 16...1920) }) { settings.width = width }
        if let format = try fields.take("format", { value, place throws(RecipeError) -> PreviewFormat in
            let text = try string(value, place, "webp or mp4")
            guard let format = PreviewFormat(rawValue: text) else { throw .invalid(place: place, expected: "webp or mp4", found: describe(value)) }
            return format
        }) { settings.format = format }
        if let quality = try fields.take("quality", { value, place throws(RecipeError) in try integer(value, place, 1...100) }) { settings.quality = quality }
    }
}

private func readWebVideo(_ value: JSONValue, _ place: String) throws(RecipeError) -> IngestRecipe.WebVideoSettings? {
    try optionalObject(value, place, defaults: IngestRecipe.WebVideoSettings(),
                       keys: ["always", "hls", "shorter_side", "preset", "crf"]) { fields, settings throws(RecipeError) in
        if let always = try fields.take("always", boolean) { settings.always = always }
        if let hls = try fields.take("hls", boolean) { settings.hls = hls }
        if let side = try fields.take("shorter_side", { value, place throws(RecipeError) in try integer(value, place, 16...8192) }) {
            settings.shorterSide = side
        }
        if let preset = try fields.take("preset", { value, place throws(RecipeError) -> String in
            let expected = TranscodeOptions.presets.joined(separator: ", ")
            let text = try string(value, place, expected)
            guard TranscodeOptions.presets.contains(text) else { throw .invalid(place: place, expected: expected, found: describe(value)) }
            return text
        }) { settings.preset = preset }
        if let crf = try fields.take("crf", { value, place throws(RecipeError) in try number(value, place, 0...51) }) { settings.crf = crf }
    }
}

private struct BlurHashComponents {
    let x: Int
    let y: Int
}

/// false: none; true: BlurHash's 4x3; `{"blurhash": [x, y]}`: its components.
private func readPlaceholders(_ value: JSONValue, _ place: String) throws(RecipeError) -> BlurHashComponents? {
    switch value {
    case .bool(let flag): return flag ? BlurHashComponents(x: 4, y: 3) : nil
    case .object:
        var fields = try Fields(value, place: place, keys: ["blurhash"])
        let components = try fields.take("blurhash") { value, place throws(RecipeError) -> BlurHashComponents in
            guard case .array(let pair) = value, pair.count == 2 else {
                throw .invalid(place: place, expected: "[x, y], each 1 to 9 components", found: describe(value))
            }
            return BlurHashComponents(x: try integer(pair[0], place + "[0]", BlurHash.componentRange),
                                      y: try integer(pair[1], place + "[1]", BlurHash.componentRange))
        } ?? BlurHashComponents(x: 4, y: 3)
        try fields.finish()
        return components
    default: throw .invalid(place: place, expected: "true, false or {\"blurhash\": [x, y]}", found: describe(value))
    }
}

private func readNames(_ value: JSONValue, _ place: String) throws(RecipeError) -> IngestRecipe.Names {
    var fields = try Fields(value, place: place, keys: ["rendition", "storyboard", "preview", "web_video", "hls", "manifest", "original", "motion_video"])
    var names = IngestRecipe.Names()
    func template(_ value: JSONValue, _ place: String) throws(RecipeError) -> String {
        let text = try string(value, place, "a file name template")
        // A name stays under --out-dir, on one line of a report, shows as it is (no control or
        // format character: no newline, no right-to-left override), and is a name of its own.
        let hidden: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned]
        guard !text.isEmpty, text.utf8.count <= 1024, !text.hasPrefix("/"), !text.split(separator: "/", omittingEmptySubsequences: false).contains(".."),
              !text.unicodeScalars.contains(where: { hidden.contains($0.properties.generalCategory) }), !text.hasSuffix("/") else {
            throw .invalid(place: place, expected: "a relative file name template of at most 1024 bytes: no \"..\", no control or format characters", found: describe(value))
        }
        return text
    }
    if let text = try fields.take("rendition", template) {
        guard text.contains("{name}") || text.contains("{size}") else {
            throw .invalid(place: "\(place).rendition", expected: "a template with {name} or {size}, so that each rendition has its own file", found: "\"\(text)\"")
        }
        names.rendition = text
    }
    if let text = try fields.take("storyboard", template) { names.storyboard = text }
    if let text = try fields.take("preview", template) { names.preview = text }
    if let text = try fields.take("web_video", template) { names.webVideo = text }
    if let text = try fields.take("hls", template) {
        guard text.hasSuffix(".m3u8") else {
            throw .invalid(place: "\(place).hls", expected: "a template ending .m3u8 (its renditions are named after it)", found: "\"\(text)\"")
        }
        names.hls = text
    }
    if let text = try fields.take("manifest", template) { names.manifest = text }
    if let text = try fields.take("original", template) { names.original = text }
    if let text = try fields.take("motion_video", template) { names.motionVideo = text }
    try fields.finish()
    return names
}
