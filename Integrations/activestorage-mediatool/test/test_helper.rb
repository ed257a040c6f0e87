# frozen_string_literal: true

# What the tests share: the app (app.rb), fixtures, references.
require "minitest/autorun"
require "open3"
require "json"
require "vips"
require_relative "app"
require_relative "references"

Minitest.after_run { FileUtils.remove_entry(STORAGE, true) }

FIXTURES = File.expand_path("../../../Fixtures", __dir__)

module BlobHelpers
  def blob_of(path, filename: File.basename(path))
    File.open(path, "rb") { |file| ActiveStorage::Blob.create_and_upload!(io: file, filename: filename) }
  end

  def fixture(relative)
    File.join(FIXTURES, relative)
  end

  def ffprobe_shown_size(path)
    References.ffprobe_shown_size(path)
  end

  # A copy of counter.mp4 (128x16) whose display matrix turns it by `tag` (FFmpeg 5.1's rotate
  # tag, written as a matrix), made as a phone's portrait clips are: coded landscape, shown upright.
  def rotated_counter(tag)
    path = File.join(STORAGE, "counter-rotate#{tag}.mp4")
    unless File.exist?(path)
      _, status = Open3.capture2e("ffmpeg", "-v", "error", "-y", "-i", fixture("video/counter.mp4"), "-c", "copy",
                                  "-metadata:s:v:0", "rotate=#{tag}", path)
      raise "ffmpeg could not make #{path}" unless status.success?
    end
    path
  end

  # counter.mp4 with its one track's sample table claiming `samples` samples of a byte each: an
  # index bomb. FFmpeg's MP4 demuxer makes an index entry (24 bytes) of each claimed sample however
  # few bytes the file has (40 million: a gigabyte and a minute of ffprobe for 3.5 KB); mediatool
  # refuses it from its header ("a track claims N samples, more than the file's M bytes can hold").
  def index_bomb(samples: 40_000_000)
    path = File.join(STORAGE, "index-bomb-#{samples}.mp4")
    return path if File.exist?(path)

    bytes = File.binread(fixture("video/counter.mp4"))
    stsz = box_offset(bytes, %w[moov trak mdia minf stbl stsz]) or raise "counter.mp4 has no stsz box"
    # After the box's size and type (8), its version and flags (4): the size of every sample
    # (a constant one: no table follows) and their count.
    bytes[stsz + 12, 8] = [1, samples].pack("NN")
    File.binwrite(path, bytes)
    path
  end

  # Where the box `types` (each inside the one before) begins in `bytes`, or nil.
  def box_offset(bytes, types, range = 0...bytes.bytesize)
    type, *inner = types
    offset = range.begin
    while offset + 8 <= range.end
      size, name = bytes.byteslice(offset, 8).unpack("Na4")
      break if size < 8 || offset + size > range.end
      return inner.empty? ? offset : box_offset(bytes, inner, (offset + 8)...(offset + size)) if name == type

      offset += size
    end
    nil
  end

  # Rails' ffprobe and ffmpeg (`ActiveStorage.paths`), for the block's time, are stand-ins that
  # write each run's arguments to a file and fail (Rails' `-version` check aside, which they pass):
  # the block is given a reader of the runs recorded.
  def with_recording_ffmpeg
    saved = ActiveStorage.paths.slice(:ffprobe, :ffmpeg)
    folder = Dir.mktmpdir("stand-ins-", STORAGE)
    record = File.join(folder, "runs")
    %w[ffprobe ffmpeg].each do |name|
      path = File.join(folder, name)
      File.write(path, <<~SCRIPT)
        #!/bin/sh
        [ "$1" = -version ] && exit 0
        echo "#{name} $*" >> '#{record}'
        exit 1
      SCRIPT
      File.chmod(0o755, path)
      ActiveStorage.paths[name.to_sym] = path
    end
    yield -> { File.exist?(record) ? File.readlines(record, chomp: true) : [] }
  ensure
    %i[ffprobe ffmpeg].each { |name| saved.key?(name) ? ActiveStorage.paths[name] = saved[name] : ActiveStorage.paths.delete(name) }
  end

  # Peak signal to noise of two pictures of one size, in dB, over their RGB samples.
  def psnr(first, second)
    first, second = [first, second].map { |image| image.colourspace(:srgb).extract_band(0, n: 3).cast(:float) }
    raise "sizes differ: #{first.width}x#{first.height}, #{second.width}x#{second.height}" unless first.size == second.size

    difference = first - second
    mse = (difference * difference).avg
    mse.zero? ? Float::INFINITY : 10 * Math.log10(255.0**2 / mse)
  end

  def log_lines_since(mark)
    LOG.string[mark..].lines
  end

  # With other settings for the block's time.
  def with_settings(**options)
    saved = ActiveStorage::Mediatool.settings
    ActiveStorage::Mediatool.settings = ActiveStorage::Mediatool::Settings.new(options)
    yield
  ensure
    ActiveStorage::Mediatool.settings = saved
  end
end
