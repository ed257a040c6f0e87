# frozen_string_literal: true

require_relative "test_helper"

# Blobs analysed through the app as Active Storage does it (`blob.analyze`), against ffprobe,
# exiftool and vips, and beside Rails' own analyzers on the same blobs.
class AnalyzerTest < ActiveSupport::TestCase
  include BlobHelpers

  def rails_own(blob)
    ActiveStorage::Analyzer::VideoAnalyzer.new(blob).metadata
  end

  test "the gem's analyzer and previewer come before Rails' own" do
    assert_equal ActiveStorage::Mediatool::Analyzer, ActiveStorage.analyzers.first
    assert_includes ActiveStorage.analyzers, ActiveStorage::Analyzer::VideoAnalyzer
    assert_equal ActiveStorage::Mediatool::Previewer, ActiveStorage.previewers.first
    assert_includes ActiveStorage.previewers, ActiveStorage::Previewer::VideoPreviewer
  end

  test "portrait phone videos are measured portrait, both rotations" do
    { "probe/phone-hlg-portrait.mov" => fixture("probe/phone-hlg-portrait.mov"),
      "counter.mp4 turned by rotate=270" => rotated_counter(270),
      "counter.mp4 turned by rotate=90" => rotated_counter(90) }.each do |name, path|
      blob = blob_of(path)
      blob.analyze
      shown = ffprobe_shown_size(path)
      assert_operator shown[1], :>, shown[0], "#{name}: the reference is portrait"
      assert_equal shown, [blob.metadata[:width], blob.metadata[:height]], name
      assert_includes [90, 270], blob.metadata[:angle], name
      assert_equal shown.map { |side| side / shown.reduce(:gcd) }, blob.metadata[:display_aspect_ratio], name
      assert blob.metadata[:analyzed]
      theirs = rails_own(blob)
      puts "  #{name}: mediatool #{blob.metadata[:width]}x#{blob.metadata[:height]}, " \
           "Rails' VideoAnalyzer #{theirs[:width]&.to_i}x#{theirs[:height]&.to_i} (angle #{theirs[:angle].inspect})"
    end
  end

  test "what Rails does not know: HDR, codec, audio, when and where, as exiftool reads them" do
    path = fixture("probe/phone-hlg-portrait.mov")
    blob = blob_of(path)
    blob.analyze
    metadata = blob.metadata
    assert_equal "hlg", metadata[:hdr]
    assert_equal "hevc", metadata[:codec]
    assert_equal true, metadata[:video]
    assert_equal true, metadata[:audio]
    output, = Open3.capture2("exiftool", "-n", "-j", "-GPSLatitude", "-GPSLongitude", "-CreationDate", path)
    exif = JSON.parse(output).first
    assert_in_delta exif.fetch("GPSLatitude"), metadata[:gps]["latitude"], 1e-4
    assert_in_delta exif.fetch("GPSLongitude"), metadata[:gps]["longitude"], 1e-4
    assert_equal exif.fetch("CreationDate").sub(/\A(\d+):(\d+):/, '\1-\2-').sub(" ", "T"), metadata[:created]
  end

  test "the place is left out when the app turns gps off" do
    with_settings(gps: false) do
      blob = blob_of(fixture("probe/phone-hlg-portrait.mov"))
      blob.analyze
      assert_equal [64, 96], [blob.metadata[:width], blob.metadata[:height]]
      refute blob.metadata.key?(:gps), blob.metadata.inspect
    end
  end

  test "with strip_originals, the stored file loses where and by whom, its checksum made again" do
    with_settings(strip_originals: true) do
      Dir.mktmpdir do |folder|
        path = File.join(folder, "IMG_0001.jpg")
        FileUtils.cp(fixture("pictures/camera.jpg"), path)
        _, status = Open3.capture2e("exiftool", "-q", "-overwrite_original", "-GPSLatitude=48.8566", "-GPSLatitudeRef=N",
                                    "-GPSLongitude=2.3522", "-GPSLongitudeRef=E", "-SerialNumber=SN1", "-OwnerName=Alice", path)
        assert status.success?
        blob = blob_of(path)
        blob.analyze
        stored = blob.download
        File.binwrite(File.join(folder, "stored.jpg"), stored)
        listing, = Open3.capture2("exiftool", "-a", "-G1", "-s", File.join(folder, "stored.jpg"))
        refute_match(/GPS|SerialNumber|OwnerName/, listing)
        assert_match(/Orientation/, listing)
        blob.reload
        assert_equal Digest::MD5.base64digest(stored), blob.checksum
        assert_equal stored.bytesize, blob.byte_size
        assert_includes blob.metadata[:mediatool_stripped], "EXIF:GPS"
        # The metadata is the stripped file's: no place in it.
        refute blob.metadata.key?(:gps), blob.metadata.inspect
        assert_equal [61, 41], [blob.metadata[:width], blob.metadata[:height]]
      end
    end
  end

  test "without strip_originals the stored file is the upload, byte for byte" do
    blob = blob_of(fixture("pictures/camera.jpg"))
    blob.analyze
    assert_equal File.binread(fixture("pictures/camera.jpg")), blob.download
    refute blob.metadata.key?(:mediatool_stripped)
  end

  test "with digests on, placeholders and hashes join the metadata, the hashes ImageHash's" do
    [true, false].each do |serve|
      with_settings(digests: true, serve: serve) do
        path = fixture("pictures/orientation6.jpg")
        blob = blob_of(path)
        blob.analyze
        metadata = blob.metadata
        assert_equal [61, 41], [metadata[:width], metadata[:height]], "serve: #{serve}"
        assert_equal References.imagehash(path), [metadata[:dhash], metadata[:phash]], "serve: #{serve}"
        assert_match(/\A[A-Za-z0-9+\/]+=*\z/, metadata[:thumbhash])
        assert_equal 28, metadata[:blurhash].length

        video = blob_of(fixture("video/counter.mp4"))
        video.analyze
        assert_equal [128, 16], [video.metadata[:width], video.metadata[:height]]
        assert_match(/\A\h{16}\z/, video.metadata[:phash])
      end
    end
    # Off by default: a probe reads headers only.
    blob = blob_of(fixture("pictures/orientation6.jpg"))
    blob.analyze
    refute blob.metadata.key?(:phash)
  end

  test "an anamorphic clip is measured at its display aspect" do
    path = fixture("video/anamorphic.mp4")
    blob = blob_of(path)
    blob.analyze
    assert_equal ffprobe_shown_size(path), [blob.metadata[:width], blob.metadata[:height]]
    assert_equal [16, 9], blob.metadata[:display_aspect_ratio]
  end

  test "a HEIC photo with an orientation is measured as shown, as vips shows it" do
    path = fixture("heif/orientation6.heic")
    blob = blob_of(path)
    assert_equal "image/heic", blob.content_type
    blob.analyze
    shown = Vips::Image.new_from_file(path)
    assert_equal [shown.width, shown.height], [blob.metadata[:width], blob.metadata[:height]]
    assert_equal "hevc", blob.metadata[:codec]
  end

  test "a sound file gets its duration and rate, as ffprobe reads them" do
    path = fixture("video/audio-only.m4a")
    blob = blob_of(path)
    assert blob.audio?
    blob.analyze
    output, = Open3.capture2("ffprobe", "-v", "error", "-show_format", "-show_streams", "-of", "json", path)
    reference = JSON.parse(output)
    assert_in_delta Float(reference["format"]["duration"]), blob.metadata[:duration], 0.01
    assert_equal Integer(reference["streams"].first["sample_rate"]), blob.metadata[:sample_rate]
    assert_equal "aac", blob.metadata[:codec]
    refute blob.metadata.key?(:width)
  end

  test "a broken upload is analysed as Rails does it: a warning and analyzed" do
    mark = LOG.string.size
    blob = blob_of(fixture("video/not-media.mp4"))
    assert blob.video?
    blob.analyze
    assert_equal true, blob.metadata[:analyzed]
    refute blob.metadata.key?(:width)
    assert log_lines_since(mark).any? { |line| line.include?("mediatool could not read not-media.mp4") },
           LOG.string[mark..]
  end

  test "a blob run by itself gets what the served process gives" do
    path = fixture("probe/phone-hlg-portrait.mov")
    served = blob_of(path).tap(&:analyze).metadata
    alone = with_settings(serve: false) { blob_of(path).tap(&:analyze).metadata }
    assert_equal served.except(:identified), alone.except(:identified)
  end

  test "without mediatool Rails' own analyzer does the work, and the log says so once" do
    saved = ActiveStorage.paths[:mediatool]
    ActiveStorage.paths[:mediatool] = File.join(STORAGE, "no-such-mediatool")
    ActiveStorage::Mediatool::Binary.forget
    mark = LOG.string.size
    2.times do
      blob = blob_of(fixture("video/counter.mp4"))
      blob.analyze
      assert_equal 128, blob.metadata[:width]
    end
    warnings = log_lines_since(mark).grep(/no mediatool at .*no-such-mediatool: Rails' own analyzers and previewers are used/)
    assert_equal 1, warnings.size, LOG.string[mark..]
  ensure
    ActiveStorage.paths[:mediatool] = saved
    ActiveStorage::Mediatool::Binary.forget
  end
end
