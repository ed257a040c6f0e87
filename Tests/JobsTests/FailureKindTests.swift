import Failures
import FFmpeg
import FileIO
import Imaging
import Previews
import Sandbox
import Testing

/// The kinds that decide what a caller does next: a limit is no damage, the installation is not
/// the upload's fault, and a file of no format is neither.
@Suite struct FailureKindTests {
    @Test func overALimitIsNotDamaged() {
        #expect(FailureKind(classifying: PreviewError.overMemory(needed: 2 << 30, limit: 1 << 30, keepsFrames: true)) == .overLimit)
        #expect(FailureKind(classifying: DecodeLimitError.indexTooLarge(entries: 30_000_000, needed: 1 << 30, limit: 1 << 28)) == .overLimit)
        #expect(FailureKind(classifying: WorkerFailure.timedOut(seconds: 30)) == .overLimit)
        #expect(FailureKind(classifying: WorkerFailure.starvedOfMemory(seconds: 30, limit: 1 << 30)) == .overLimit)
    }

    @Test func aMissingOrForeignWorkerIsTheDeployments() {
        #expect(FailureKind(classifying: WorkerFailure.didNotStart(ending: 70)) == .deployment)
        #expect(FailureKind(classifying: WorkerFailure.otherProtocol(worker: 1, own: 2)) == .deployment)
        #expect(FailureKind(classifying: WorkerFailure.unconfined("no seccomp")) == .deployment)
    }

    @Test func whatAFileDidToItsDecoderIsDamage() {
        #expect(FailureKind(classifying: WorkerFailure.crashed(signal: 11, words: nil)) == .damaged)
        #expect(FailureKind(classifying: VideoError.noDecodableFrame(cause: nil)) == .damaged)
    }

    @Test func noFormatIsUnsupportedNotDamaged() {
        #expect(FailureKind(classifying: InputError.empty) == .unsupportedFormat)
        #expect(FailureKind(classifying: MP4Error.compressedHeader) == .unsupportedFormat)
        #expect(FailureKind(classifying: VideoError.noVideoStream) == .noVideo)
    }
}
