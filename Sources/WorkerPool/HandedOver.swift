/// A value that is not Sendable, handed to another thread which alone uses it from then on, or
/// until the thread that handed it over joins it and takes it back. The one such box of the
/// package (modules each had their own). (Unchecked Sendable: the caller vouches that the threads
/// take turns so.)
public struct HandedOver<Value>: @unchecked Sendable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }
}
