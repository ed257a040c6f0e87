/// Seconds as messages say them: at most three decimals, no trailing zeros (`12`, `0.1`, `3.333`).
public enum SecondsText {
    public static func of(_ seconds: Double) -> String {
        // Past what milliseconds count in an Int (a hostile header's 9e18 s), the number as it is.
        guard seconds.isFinite, abs(seconds) < 9e12 else { return "\(seconds)" }
        if seconds < 0 { return "-" + of(-seconds) }
        let millis = Int((seconds * 1000).rounded())
        let whole = "\(millis / 1000)"
        let fraction = millis % 1000
        if fraction == 0 { return whole }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
