import CLCMS2

/// The name an ICC profile gives itself (its `desc` tag, v2 text or v4 multi-localised): what a
/// person recognises a colour space by ("Display P3", "sRGB IEC61966-2.1", "Adobe RGB (1998)").
public enum ICCProfileDescription {
    /// nil when lcms2 cannot read the profile or it has no description.
    public static func of(_ profile: [UInt8]) -> String? {
        guard let opened = SRGBConversion.open(profile) else { return nil }
        defer { cmsCloseProfile(opened) }
        let needed = cmsGetProfileInfoASCII(opened, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1, needed <= 4096 else { return nil }
        var text = [CChar](repeating: 0, count: Int(needed))
        _ = cmsGetProfileInfoASCII(opened, cmsInfoDescription, "en", "US", &text, needed)
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let description = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " ")
        return description.isEmpty ? nil : description
    }
}

extension String {
    fileprivate func trimmingCharacters(in padding: Character) -> String {
        var text = Substring(self)
        while text.last == padding { text.removeLast() }
        while text.first == padding { text.removeFirst() }
        return String(text)
    }
}
