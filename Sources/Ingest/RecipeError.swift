import JSON
import Failures

/// A recipe that cannot be followed: where in it, what was expected there and what was found.
public enum RecipeError: Error, Equatable, CustomStringConvertible {
    /// Not JSON at all.
    case syntax(JSONSyntaxError)
    /// `place` is a path into the recipe (`renditions[2].size`), `found` as the recipe spells it.
    case invalid(place: String, expected: String, found: String)
    /// A key the schema does not have: a misspelling would otherwise be ignored.
    case unknownKey(place: String, key: String, known: [String])
    /// The recipe as a whole asks for something no upload can give.
    case unusable(String)

    public var description: String {
        switch self {
        case .syntax(let error): return "the recipe is not JSON: \(error)"
        case .invalid(let place, let expected, let found): return "the recipe's \(place): expected \(expected), found \(found)"
        case .unknownKey(let place, let key, let known):
            return "the recipe's \(place) has no key \(JSONString.quoted(key)) (it takes \(known.map { "\"\($0)\"" }.joined(separator: ", ")))"
        case .unusable(let why): return "the recipe \(why)"
        }
    }
}

extension RecipeError: ClassifiedError {
    public var failureKind: FailureKind { .invalidRequest }
}
