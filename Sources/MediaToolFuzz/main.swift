import Glibc

// libFuzzer's entry point; built with `swift build --sanitize=fuzzer` (scripts/fuzz), libFuzzer
// supplies main. MEDIATOOL_FUZZ_TARGET names the target: exif, png, jpeg, heif, webp, tiff, doubles, arguments, video, probe, wire.
// Built without the fuzzer, this executable does nothing.

nonisolated(unsafe) private var selectedTarget: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    if selectedTarget == nil {
        let name = getenv("MEDIATOOL_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTargets.all[name] else {
            fatalError("MEDIATOOL_FUZZ_TARGET must be one of \(FuzzTargets.all.keys.sorted())")
        }
        selectedTarget = target
    }
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    selectedTarget!(bytes)
    return 0
}
