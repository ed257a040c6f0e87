import Batch
import FileIO
import ImageCodecs
import JSON
import MediaProbe

extension Prober {
    /// The probe as a job: no output, the report is the result.
    public var job: FileJob {
        let includesGPS = options.includesGPS
        var job = FileJob(recognise: Self.recognise, policy: OutputPolicy(overwrite: false, isNamedByUser: false)) { file, _, _ in
            let (result, warnings) = try probe(file)
            return JobReport(fields: result.fields(includesGPS: includesGPS), warnings: warnings)
        }
        job.decoders = JobDecoders.forInput
        return job
    }
}
