import Foundation

/// The suite under AddressSanitizer (`scripts/test --sanitize`), where every mediatool process
/// and each of its workers costs several times its plain start: a test that runs the tool over
/// many cases runs a fixed share of them there, the plain suite runs them all. The sanitizers
/// look for what a case does to memory, which the cases of one test mostly share.
public enum Sanitized {
    public static let isOn = ProcessInfo.processInfo.environment["MEDIATOOL_SANITIZED"] != nil

    /// `cases` whole, or under the sanitizers every `stride`-th of them from the first (the
    /// last always kept): the same ones every run.
    public static func sample<Case>(_ cases: [Case], every stride: Int = 3) -> [Case] {
        guard isOn, stride > 1, cases.count > 2 else { return cases }
        var kept = Swift.stride(from: 0, to: cases.count, by: stride).map { cases[$0] }
        if (cases.count - 1) % stride != 0 { kept.append(cases[cases.count - 1]) }
        return kept
    }
}
