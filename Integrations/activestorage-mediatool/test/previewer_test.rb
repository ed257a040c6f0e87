# frozen_string_literal: true

require_relative "test_helper"

# Video previews made through Active Storage (`blob.preview(...).processed`, its variant
# pipeline with vips), held to the SDR pictures the HDR clips were made from, and to the
# upright picture of a rotated clip.
class PreviewerTest < ActiveSupport::TestCase
  include BlobHelpers

  # The picture the previewer attached (what variants are then made of).
  def preview_image(blob)
    preview = blob.preview(resize_to_limit: [4096, 4096]).processed
    Vips::Image.new_from_buffer(preview.image.download, "")
  end

  def rails_own_preview(blob)
    ActiveStorage::Previewer::VideoPreviewer.new(blob).preview do |attachable|
      return Vips::Image.new_from_buffer(attachable[:io].read, "")
    end
  end

  test "HDR clips are previewed tone mapped, within 30 dB of the SDR picture they were made from" do
    source = Vips::Image.new_from_file(fixture("hdr/photo-sdr.png"))
    %w[hdr/photo-hlg.mp4 hdr/photo-pq.mp4].each do |clip|
      blob = blob_of(fixture(clip))
      ours = psnr(preview_image(blob), source)
      theirs = psnr(rails_own_preview(blob), source)
      puts format("  %s: mediatool's preview %.1f dB from the SDR source, Rails' VideoPreviewer %.1f dB", clip, ours, theirs)
      assert_operator ours, :>=, 30, clip
    end
  end

  test "a rotated clip's preview is upright: its picture is the unrotated clip's" do
    upright = preview_image(blob_of(fixture("video/quadrants-orientation1.mp4")))
    %w[quadrants-orientation6.mp4 quadrants-orientation8.mp4].each do |clip|
      turned = preview_image(blob_of(fixture("video/#{clip}")))
      assert_equal [upright.width, upright.height], [turned.width, turned.height], clip
      assert_operator psnr(turned, upright), :>=, 30, clip
    end
  end

  test "a portrait phone video's preview, resized to a limit, is portrait" do
    blob = blob_of(fixture("probe/phone-hlg-portrait.mov"))
    variant = blob.preview(resize_to_limit: [200, 200]).processed
    image = Vips::Image.new_from_buffer(variant.image.variant(resize_to_limit: [200, 200]).processed.download, "")
    assert_equal ffprobe_shown_size(fixture("probe/phone-hlg-portrait.mov")), [image.width, image.height]
    assert_equal "image/jpeg", variant.image.blob.content_type
  end

  test "a HEIC photo, which Rails 6.1 cannot vary, is represented upright, as vips shows it" do
    path = fixture("heif/orientation6.heic")
    blob = blob_of(path)
    assert_not blob.variable?
    assert blob.representable?
    representation = blob.representation(resize_to_limit: [4096, 4096]).processed
    image = Vips::Image.new_from_buffer(representation.image.download, "")
    shown = Vips::Image.new_from_file(path)
    assert_equal [shown.width, shown.height], [image.width, image.height]
    assert_operator psnr(image, shown), :>=, 30
  end

  test "a video of no kind mediatool reads goes to Rails' own previewer, and raises its PreviewError" do
    mark = LOG.string.size
    blob = blob_of(fixture("video/not-media.mp4"))
    assert_raises(ActiveStorage::PreviewError) { blob.preview(resize_to_limit: [200, 200]).processed }
    assert(log_lines_since(mark).any? { |line| line.include?("mediatool could not preview not-media.mp4") && line.include?("VideoPreviewer is asked instead") },
           LOG.string[mark..])
  end

  test "a preview's error names the blob, never where its file lies" do
    [false, true].each do |serve|
      with_settings(serve: serve) do
        mark = LOG.string.size
        blob = blob_of(fixture("bad/mp4-chunks-past-the-end.mp4"), filename: "clip.mp4")
        on_disk = ActiveStorage::Blob.service.path_for(blob.key)
        error = assert_raises(ActiveStorage::PreviewError) { blob.preview(resize_to_limit: [64, 64]).processed }
        refute_includes error.message, on_disk, "serve: #{serve}"
        refute_includes error.message, STORAGE, "serve: #{serve}"
        refute_includes LOG.string[mark..], STORAGE, "serve: #{serve}"
        assert_equal "mediatool could not preview clip.mp4 (#{blob.key}): no decodable video frame", error.message, "serve: #{serve}"
      end
    end
  end

  # With "image/avif" among the types Active Storage makes variants of, as an app that asks for
  # AVIF previews adds it (Rails 6.1 does not count it).
  def with_avif_variants
    saved = ActiveStorage.variable_content_types
    ActiveStorage.variable_content_types = saved + ["image/avif"]
    yield
  ensure
    ActiveStorage.variable_content_types = saved
  end

  test "an app that asks for AVIF previews gets AVIF pictures, and their variants, upright" do
    with_avif_variants do
      with_settings(preview_format: "avif") do
        path = fixture("probe/phone-hlg-portrait.mov")
        preview = blob_of(path).preview(resize_to_limit: [200, 200]).processed
        assert_equal "image/avif", preview.image.blob.content_type
        assert_equal "ftypavif".b, preview.image.download.byteslice(4, 8)
        variant = Vips::Image.new_from_buffer(preview.image.variant(resize_to_limit: [200, 200]).processed.download, "")
        assert_equal ffprobe_shown_size(path), [variant.width, variant.height]

        heic = fixture("heif/orientation6.heic")
        representation = blob_of(heic).representation(resize_to_limit: [4096, 4096]).processed
        assert_equal "image/avif", representation.image.blob.content_type
        image = Vips::Image.new_from_buffer(representation.image.download, "")
        shown = Vips::Image.new_from_file(heic)
        assert_equal [shown.width, shown.height], [image.width, image.height]
        assert_operator psnr(image, shown), :>=, 30
      end
    end
  end

  test "a preview format other than jpeg or avif is refused when the app starts" do
    error = assert_raises(ArgumentError) { ActiveStorage::Mediatool::Settings.new(preview_format: "gif") }
    assert_equal "config.active_storage.mediatool.preview_format: jpeg or avif, not gif", error.message
  end
end
