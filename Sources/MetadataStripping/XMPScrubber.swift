/// Removes properties from an XMP packet by blanking them with spaces where they stand, as an
/// element (`<photoshop:City>Paris</photoshop:City>`, nested structures whole) or as an attribute
/// (`exif:GPSLatitude="48,51.0N"`). The packet keeps its length, so whatever points into or past
/// it (an HEIF item's extent, a Motion Photo's offsets) stays right, and XML allows the spaces.
/// Properties are told by namespace and local name, whatever prefix the packet binds to the
/// namespace (`xmlns:zz="http://ns.adobe.com/photoshop/1.0/"`, or a default `xmlns`), and by local
/// names that say GPS, latitude, longitude or serial number in any namespace.
enum XMPScrubber {
    /// Namespace URI, then local name: the group that removes it.
    static let properties: [String: [String: StripGroup]] = [
        "http://ns.adobe.com/photoshop/1.0/": ["City": .location, "State": .location, "Country": .location],
        "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/": ["Location": .location, "CountryCode": .location, "CreatorContactInfo": .author],
        "http://iptc.org/std/Iptc4xmpExt/2008-02-29/": [
            "LocationCreated": .location, "LocationShown": .location, "City": .location, "CountryName": .location,
            "CountryCode": .location, "ProvinceState": .location, "Sublocation": .location, "WorldRegion": .location,
            "LocationName": .location, "LocationId": .location,
        ],
        "http://ns.adobe.com/exif/1.0/aux/": ["OwnerName": .owner],
        "http://cipa.jp/exif/1.0/": ["CameraOwnerName": .owner],
        "http://purl.org/dc/elements/1.1/": ["coverage": .location, "creator": .author],
        "http://ns.adobe.com/tiff/1.0/": ["Artist": .author],
    ]

    /// The usual prefixes, for a packet that uses them without binding them (exiftool reads such).
    static let usualPrefixes: [String: String] = [
        "photoshop": "http://ns.adobe.com/photoshop/1.0/", "Iptc4xmpCore": "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/",
        "Iptc4xmpExt": "http://iptc.org/std/Iptc4xmpExt/2008-02-29/", "aux": "http://ns.adobe.com/exif/1.0/aux/",
        "exifEX": "http://cipa.jp/exif/1.0/", "dc": "http://purl.org/dc/elements/1.1/", "tiff": "http://ns.adobe.com/tiff/1.0/",
    ]

    /// What each prefix is bound to anywhere in the packet (`""`: the default namespace), with the
    /// usual prefixes besides. Scopes are not followed: a prefix bound to two namespaces matches
    /// the properties of both, which removes more, never less.
    static func bindings(in packet: [UInt8]) -> [String: Set<String>] {
        var bound = usualPrefixes.mapValues { Set([$0]) }
        var index = 0
        let marker = Array("xmlns".utf8)
        while let found = packet[index...].range(of: marker) {
            index = found.upperBound
            var cursor = found.upperBound, prefix = ""
            if cursor < packet.count, packet[cursor] == UInt8(ascii: ":") {
                let start = cursor + 1
                cursor = start
                while cursor < packet.count, isNameByte(packet[cursor]) { cursor += 1 }
                prefix = String(decoding: packet[start..<cursor], as: UTF8.self)
            }
            while cursor < packet.count, isSpace(packet[cursor]) { cursor += 1 }
            guard cursor < packet.count, packet[cursor] == UInt8(ascii: "=") else { continue }
            cursor += 1
            while cursor < packet.count, isSpace(packet[cursor]) { cursor += 1 }
            guard cursor < packet.count, packet[cursor] == UInt8(ascii: "\"") || packet[cursor] == UInt8(ascii: "'") else { continue }
            let quote = packet[cursor]
            guard let close = packet[(cursor + 1)...].firstIndex(of: quote) else { continue }
            bound[prefix, default: []].insert(String(decoding: packet[(cursor + 1)..<close], as: UTF8.self))
        }
        return bound
    }

    /// The group of a property named `name` (`prefix:local`, or `local` in the default namespace).
    static func group(of name: Substring, bindings: [String: Set<String>]) -> StripGroup? {
        let parts = name.split(separator: ":", maxSplits: 1)
        let (prefix, local) = parts.count == 2 ? (String(parts[0]), String(parts[1])) : ("", String(name))
        // xmlns declarations and xml:lang are no properties.
        if prefix == "xmlns" || (prefix.isEmpty && local == "xmlns") || prefix == "xml" { return nil }
        for namespace in bindings[prefix] ?? [] {
            if let group = properties[namespace]?[local] { return group }
        }
        let lowered = local.lowercased()
        if lowered.hasPrefix("gps") || lowered.contains("latitude") || lowered.contains("longitude") { return .location }
        if lowered.hasSuffix("serialnumber") { return .serial }
        return nil
    }

    /// `packet` with the properties of `groups` blanked, and their names, each `XMP:name`.
    static func scrub(_ packet: [UInt8], removing groups: Set<StripGroup>) -> (bytes: [UInt8], removed: [String]) {
        // UTF-16 or UTF-32 (NUL bytes where UTF-8 XML has none): not read property by property,
        // but blanked whole, since any of it may be a place.
        if packet.prefix(64).contains(0) {
            guard !groups.isEmpty, packet.contains(where: { $0 != 0 && $0 != 0x20 }) else { return (packet, []) }
            return (packet.map { _ in 0x20 }, ["XMP:Packet (UTF-16, removed whole)"])
        }
        let bindings = bindings(in: packet)
        var bytes = packet
        var removed: [String] = []
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard let (name, nameEnd) = qualifiedName(in: bytes, at: index) else { continue }
            if let group = group(of: name, bindings: bindings), groups.contains(group) {
                let end = elementEnd(in: bytes, name: name, openEnd: nameEnd) ?? bytes.count
                blank(&bytes, open..<end)
                removed.append(reportName(name))
                index = end
                continue
            }
            index = scrubAttributes(&bytes, from: nameEnd, removing: groups, bindings: bindings, removed: &removed)
        }
        return (bytes, removed)
    }

    /// Blanks the attributes of `groups` in the start tag whose attributes begin at `start`;
    /// returns where the tag ends.
    private static func scrubAttributes(_ bytes: inout [UInt8], from start: Int, removing groups: Set<StripGroup>,
                                        bindings: [String: Set<String>], removed: inout [String]) -> Int {
        var index = start
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") else { return index }
            guard let (name, nameEnd) = qualifiedName(in: bytes, at: index) else { return index }
            var cursor = nameEnd
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { return cursor }
            cursor += 1
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { return cursor }
            let quote = bytes[cursor]
            guard let close = bytes[(cursor + 1)...].firstIndex(of: quote) else { return bytes.count }
            if let group = group(of: name, bindings: bindings), groups.contains(group) {
                blank(&bytes, index..<(close + 1))
                removed.append(reportName(name))
            }
            index = close + 1
        }
        return index
    }

    /// `XMP:Name` as exiftool names a property: its local name, capitalised (`dc:creator` is `XMP:Creator`).
    private static func reportName(_ name: Substring) -> String {
        let local = name.split(separator: ":").last.map(String.init) ?? String(name)
        return "XMP:" + local.prefix(1).uppercased() + local.dropFirst()
    }

    /// The qualified name at `start` (letters, digits, `:`, `_`, `-`, `.`), and where it ends.
    private static func qualifiedName(in bytes: [UInt8], at start: Int) -> (Substring, Int)? {
        var end = start
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        guard end > start, bytes[start] != UInt8(ascii: ":") else { return nil }
        return (Substring(decoding: bytes[start..<end], as: UTF8.self), end)
    }

    /// The end of the element named `name` whose start tag's name ends at `openEnd`: past its
    /// `/>`, or past the `</name>` that closes it (elements of the same name inside counted).
    private static func elementEnd(in bytes: [UInt8], name: Substring, openEnd: Int) -> Int? {
        guard let tagEnd = bytes[openEnd...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        if bytes[tagEnd - 1] == UInt8(ascii: "/") { return tagEnd + 1 }
        var depth = 1, index = tagEnd + 1
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let closing = open + 1 < bytes.count && bytes[open + 1] == UInt8(ascii: "/")
            guard let (found, foundEnd) = qualifiedName(in: bytes, at: open + (closing ? 2 : 1)), found == name else {
                index = open + 1
                continue
            }
            guard let end = bytes[foundEnd...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            if closing {
                depth -= 1
                if depth == 0 { return end + 1 }
            } else if bytes[end - 1] != UInt8(ascii: "/") {
                depth += 1
            }
            index = end + 1
        }
        return nil
    }

    /// Spaces over `range`, its line breaks kept (a packet read line by line stays as long).
    private static func blank(_ bytes: inout [UInt8], _ range: Range<Int>) {
        for index in range where bytes[index] != UInt8(ascii: "\n") && bytes[index] != UInt8(ascii: "\r") {
            bytes[index] = UInt8(ascii: " ")
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x3A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte >= 0x80
    }
}
