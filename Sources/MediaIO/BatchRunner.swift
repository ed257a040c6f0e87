/// Runs one job per input, reports each failure as one line naming the input, and goes on.
public struct BatchRunner {
    public private(set) var failedInputs: [String] = []

    public init() {}

    /// Runs `job` for `input`; a thrown error becomes `mediatool: <input>: <error>` on standard error.
    public mutating func run(_ input: String, _ job: () throws -> Void) {
        do {
            try job()
        } catch {
            Diagnostics.error(input == "-" ? InputFile.standardInputName : input, "\(error)")
            failedInputs.append(input)
        }
    }

    /// 0 when every input succeeded, 1 when any failed.
    public var exitStatus: Int32 { failedInputs.isEmpty ? 0 : 1 }
}
