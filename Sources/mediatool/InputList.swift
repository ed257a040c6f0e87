import ArgumentParser

/// The inputs of a subcommand, as given on the command line.
enum InputList {
    /// Standard input can be read once: `-` may stand once among the inputs.
    static func validate(_ inputs: [String]) throws {
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("'-' (standard input) can be given only once.")
        }
        if inputs.contains("") { throw ValidationError("An input is an empty name.") }
    }

    /// Names given to options are never empty (`-o ''` is a slip, not a file).
    static func refuseEmpty(_ options: [(option: String, value: String?)]) throws {
        for (option, value) in options where value?.isEmpty == true {
            throw ValidationError("\(option) takes a name, not an empty one.")
        }
    }
}
