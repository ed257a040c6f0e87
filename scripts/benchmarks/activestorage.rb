# frozen_string_literal: true

# scripts/bench activestorage: the Active Storage gem against Rails' own analyzer and previewer, in
# one Rails process (the gem's test app, Integrations/activestorage-mediatool/test/app.rb), on the
# same blobs: 20 one-minute 1080p H.264 clips with sound, as a phone's upload is. Rails analyses on
# its job workers one blob at a time, so each side takes the blobs one after another; the tools take
# turns within each round, and the medians of the rounds are compared. The bars (issue 40): analysis
# 1.5x, previews 3x.
require "benchmark"
require "open3"

runs = 5
ARGV.each_with_index { |argument, index| runs = Integer(ARGV[index + 1]) if argument == "--runs" }
root = File.expand_path("../..", __dir__)
$LOAD_PATH.unshift(File.join(root, "Integrations/activestorage-mediatool/lib"))
ENV["PATH"] = "#{File.dirname(ENV.fetch("MEDIATOOL"))}:#{ENV["PATH"]}"
require File.join(root, "Integrations/activestorage-mediatool/test/app")
at_exit { FileUtils.remove_entry(STORAGE, true) }

clip = File.join(ENV.fetch("BENCH_DIR"), "phone-minute-1080p.mp4")
unless File.exist?(clip)
  _, status = Open3.capture2e("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=60",
                              "-f", "lavfi", "-i", "sine=frequency=440:duration=60", "-c:v", "libx264", "-preset", "veryfast",
                              "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip)
  abort "bench: ffmpeg could not make #{clip}" unless status.success?
end
blobs = Array.new(20) { |index| File.open(clip, "rb") { |file| ActiveStorage::Blob.create_and_upload!(io: file, filename: "clip#{index}.mp4") } }

def median(values)
  sorted = values.sort
  (sorted[(sorted.size - 1) / 2] + sorted[sorted.size / 2]) / 2.0
end

analyses = {
  "Rails' VideoAnalyzer (ffprobe)" => ->(blob) { ActiveStorage::Analyzer::VideoAnalyzer.new(blob).metadata },
  "mediatool, served" => ->(blob) { ActiveStorage::Mediatool::Analyzer.new(blob).metadata },
  "mediatool, a run a blob" => ->(blob) { ActiveStorage::Mediatool::Analyzer.new(blob).metadata }
}
previews = {
  "Rails' VideoPreviewer (ffmpeg)" => ->(blob) { ActiveStorage::Previewer::VideoPreviewer.new(blob).preview { |attachable| attachable[:io].read } },
  "mediatool, served" => ->(blob) { ActiveStorage::Mediatool::Previewer.new(blob).preview { |attachable| attachable[:io].read } },
  "mediatool, a run a blob" => ->(blob) { ActiveStorage::Mediatool::Previewer.new(blob).preview { |attachable| attachable[:io].read } }
}
# Each side's answer checked once, so that a fast failure is not timed as work.
ActiveStorage::Mediatool.settings = ActiveStorage::Mediatool::Settings.new
measured = ActiveStorage::Mediatool::Analyzer.new(blobs.first).metadata
abort "bench: mediatool measured #{measured.inspect}" unless measured[:width] == 1920 && measured[:height] == 1080 && (measured[:duration] - 60).abs < 0.1
ActiveStorage::Mediatool::Previewer.new(blobs.first).preview do |attachable|
  poster = attachable[:io].read
  abort "bench: mediatool's preview is no JPEG" unless poster.start_with?("\xFF\xD8".b) && poster.bytesize > 10_000
end

served = ActiveStorage::Mediatool::Settings.new
alone = ActiveStorage::Mediatool::Settings.new(serve: false)

[["20 analyses", analyses, blobs], ["10 previews", previews, blobs.first(10)]].each do |title, tools, sample|
  # The first of each: the processes the gem keeps started, and the first mediatool run made.
  tools.each do |name, work|
    ActiveStorage::Mediatool.settings = name.end_with?("a run a blob") ? alone : served
    work.call(sample.first)
  end
  times = Hash.new { |hash, key| hash[key] = [] }
  runs.times do
    tools.each do |name, work|
      ActiveStorage::Mediatool.settings = name.end_with?("a run a blob") ? alone : served
      work.call(sample.first) if name == "mediatool, served"
      times[name] << Benchmark.realtime { sample.each(&work) }
    end
  end
  rails = median(times[tools.keys.first])
  puts "#{title} of a one-minute 1080p clip, median of #{runs}:"
  times.each do |name, values|
    puts format("  %-32s %6.3f s  %5.2fx Rails'", name, median(values), rails / median(values))
  end
end
ActiveStorage::Mediatool.stop
