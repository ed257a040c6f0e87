import ArgumentParser

/// The inputs of a subcommand, as given on the command line.
enum InputList {
    /// Standard input can be read once: `-` may stand once among the inputs.
    static func validate(_ inputs: [String]) throws {
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("'-' (standard input) can be given only once.")
        }
    }
}
