/// Removes IPTC datasets from a Photoshop resource block (a JPEG's APP13 "Photoshop 3.0"
/// payload after its signature): the location datasets and, when asked, the by-lines. The block
/// shrinks by what it removed; where its length must stay (`keepsLength`: a JPEG whose MPF
/// offsets count past it), the resource's name grows by as much, or zeros after its last dataset
/// take up what went where the name cannot.
enum IPTCScrubber {
    /// Record 2's datasets, by number: exiftool's names and their groups.
    static let datasets: [UInt8: (name: String, group: StripGroup)] = [
        26: ("ContentLocationCode", .location), 27: ("ContentLocationName", .location),
        90: ("City", .location), 92: ("Sub-location", .location), 95: ("Province-State", .location),
        100: ("Country-PrimaryLocationCode", .location), 101: ("Country-PrimaryLocationName", .location),
        80: ("By-line", .author), 85: ("By-lineTitle", .author),
    ]

    static let iptcResource = 0x0404

    /// `block` with the datasets of `groups` removed, and their names, each `IPTC:name`; nil when
    /// the block is not a well-formed resource list (it is then left as it is).
    static func scrub(_ block: [UInt8], removing groups: Set<StripGroup>, keepsLength: Bool) -> (bytes: [UInt8], removed: [String])? {
        var output: [UInt8] = [], removed: [String] = []
        var index = 0
        while index < block.count {
            // "8BIM", id, a Pascal name padded to an even length, a 32-bit size, data padded to even.
            guard index + 8 <= block.count, block[index..<(index + 4)].elementsEqual("8BIM".utf8) else { return nil }
            let id = Int(block[index + 4]) << 8 | Int(block[index + 5])
            let nameLength = Int(block[index + 6])
            let sizeAt = index + 6 + (nameLength + 2) / 2 * 2
            guard sizeAt + 4 <= block.count else { return nil }
            let size = block[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let dataAt = sizeAt + 4
            guard size <= block.count - dataAt else { return nil }
            let end = min(block.count, dataAt + size + size % 2)
            var data = Array(block[dataAt..<(dataAt + size)])
            var name = Array(block[(index + 6)..<sizeAt])
            if id == iptcResource, let scrubbed = scrubDatasets(data, removing: groups, keepsLength: false) {
                data = scrubbed.bytes
                removed += scrubbed.removed
                if keepsLength {
                    // The resource keeps its length by a longer name (which readers ignore), or,
                    // where the name cannot take up what went, its values are blanked instead.
                    let room = (end - index) - 10 - (data.count + data.count % 2)
                    if room >= 2 && room - 1 <= 255 {
                        name = [UInt8(room - 1)] + [UInt8](repeating: 0x20, count: room - 1)
                    } else if let blanked = scrubDatasets(Array(block[dataAt..<(dataAt + size)]), removing: groups, keepsLength: true) {
                        data = blanked.bytes
                    }
                }
            }
            output += block[index..<(index + 6)] + name
            output += [UInt8(data.count >> 24 & 0xFF), UInt8(data.count >> 16 & 0xFF), UInt8(data.count >> 8 & 0xFF), UInt8(data.count & 0xFF)]
            output += data
            if data.count % 2 == 1 { output.append(0) }
            index = end
        }
        return (output, removed)
    }

    /// The IIM datasets with those of `groups` removed (or blanked); nil when they do not parse.
    static func scrubDatasets(_ data: [UInt8], removing groups: Set<StripGroup>, keepsLength: Bool) -> (bytes: [UInt8], removed: [String])? {
        var output: [UInt8] = [], removed: [String] = []
        var index = 0
        while index + 5 <= data.count, data[index] == 0x1C {
            let record = data[index + 1], number = data[index + 2]
            var length = Int(data[index + 3]) << 8 | Int(data[index + 4])
            var valueAt = index + 5
            if length & 0x8000 != 0 {
                // An extended dataset: the low bits count the bytes of the length that follow.
                let lengthBytes = length & 0x7FFF
                guard lengthBytes <= 4, valueAt + lengthBytes <= data.count else { return nil }
                length = data[valueAt..<(valueAt + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
                valueAt += lengthBytes
            }
            guard length <= data.count - valueAt else { return nil }
            let end = valueAt + length
            if record == 2, let (name, group) = datasets[number], groups.contains(group) {
                removed.append("IPTC:\(name)")
            } else {
                output += data[index..<end]
            }
            index = end
        }
        output += data[index...]
        // Where the length must stay, zeros after the last dataset take up what went: readers
        // stop there (exiftool says nothing), where a blanked value would still be a City, empty.
        if keepsLength { output += [UInt8](repeating: 0, count: data.count - output.count) }
        return removed.isEmpty ? nil : (output, removed)
    }
}
