/// A pointer handed to worker threads that each touch their own part of the memory, all of them
/// done before `WorkerThreads.run` returns and the memory goes. (Unchecked Sendable: the caller
/// vouches for that.)
public struct UnsafeSendablePointer<Pointee>: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<Pointee>

    public init(_ pointer: UnsafeMutablePointer<Pointee>) {
        self.pointer = pointer
    }
}
