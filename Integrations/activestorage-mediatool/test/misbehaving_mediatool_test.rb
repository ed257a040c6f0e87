# frozen_string_literal: true

require_relative "test_helper"

# The hostile review's mediatools: decoys named by ActiveStorage.paths[:mediatool] that answer
# `--version` as mediatool does and then misbehave, and mediatools removed, moved or replaced
# after they were found. An analysis must end within the app's timeout, analysed as failed (no
# answer said what the file is, so Rails' own tools are not given it), and a preview must raise
# PreviewError; never another exception.
class MisbehavingMediatoolTest < ActiveSupport::TestCase
  include BlobHelpers

  DECOYS = {
    # Closes its output and lives on: the run a blob waited for it without end.
    "closes its output and lives on" => "exec >&- 2>&-; exec sleep 300",
    # Answers JSON that is no object, or another input's line.
    "answers null" => "while read -r line; do echo null; done; echo null",
    "answers another input" => %q(while read -r line; do echo '{"input":"/elsewhere.mp4","status":"ok","kind":"video","width":9}'; done)
  }.freeze

  def decoy(name)
    path = File.join(STORAGE, "decoy-#{name.tr(" ", "-")}")
    File.write(path, <<~SCRIPT)
      #!/bin/bash
      [ "$1" = --version ] && { echo 0.0.0; exit 0; }
      #{DECOYS.fetch(name)}
    SCRIPT
    File.chmod(0o755, path)
    path
  end

  def with_mediatool(path, **settings)
    saved = ActiveStorage.paths[:mediatool]
    ActiveStorage.paths[:mediatool] = path
    ActiveStorage::Mediatool::Binary.forget
    with_settings(timeout: 1, **settings) { yield }
  ensure
    ActiveStorage.paths[:mediatool] = saved
    ActiveStorage::Mediatool::Binary.forget
  end

  DECOYS.each_key do |name|
    [true, false].each do |serve|
      test "a mediatool that #{name} (#{serve ? "served" : "a run a blob"}) fails the analysis and the preview" do
        with_mediatool(decoy(name), serve: serve) do
          mark = LOG.string.size
          blob = blob_of(fixture("video/counter.mp4"))
          blob.analyze
          assert_equal true, blob.metadata[:analyzed]
          # No answer says what the file is: it is not handed to a tool without mediatool's limits.
          assert_match(/\Amediatool /, blob.metadata[:mediatool_failed], blob.metadata.inspect)
          refute blob.metadata.key?(:width), blob.metadata.inspect
          assert(log_lines_since(mark).any? { |line| line.include?("mediatool could not analyse counter.mp4 (#{blob.key})") && line.include?("analysed as failed") },
                 LOG.string[mark..])
          error = assert_raises(ActiveStorage::PreviewError) { blob.preview(resize_to_limit: [64, 64]).processed }
          refute_includes error.message, STORAGE
        end
      end
    end
  end

  # The mediatool the tests run (the first on PATH), put in a folder of the test's own at `name`:
  # linked where it can be, else copied.
  def own_mediatool(name = "mediatool")
    found = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).map { |folder| File.join(folder, "mediatool") }
                .detect { |candidate| File.file?(candidate) && File.executable?(candidate) } or raise "no mediatool on PATH"
    path = File.join(Dir.mktmpdir("mediatool-bin-", STORAGE), name)
    begin
      File.link(found, path)
    rescue SystemCallError
      FileUtils.cp(found, path)
    end
    path
  end

  def analysed(path)
    blob_of(path).tap(&:analyze).reload.metadata
  end

  test "a mediatool removed, put back or replaced between analyses is looked for again, never an exception" do
    phone = fixture("probe/phone-hlg-portrait.mov")
    [false, true].each do |serve|
      binary = own_mediatool
      with_mediatool(binary, serve: serve, timeout: 60) do
        assert_equal [64, 96, "hlg"], analysed(phone).values_at(:width, :height, :hdr), "serve: #{serve}"

        File.rename(binary, "#{binary}.away")
        mark = LOG.string.size
        # No mediatool now: Rails' own analyzer, which measures this portrait clip landscape.
        metadata = analysed(phone)
        assert_equal true, metadata[:analyzed]
        assert_equal [96, 64, nil], metadata.values_at(:width, :height, :hdr), "serve: #{serve}"
        assert(log_lines_since(mark).any? { |line| line.include?("no mediatool at #{binary}") }, LOG.string[mark..])
        assert_nil ActiveStorage::Mediatool.tool

        File.rename("#{binary}.away", binary)
        assert_equal [64, 96, "hlg"], analysed(phone).values_at(:width, :height, :hdr), "serve: #{serve}"

        # Replaced by a file that cannot be started (its interpreter is not there).
        File.write("#{binary}.new", "#!#{STORAGE}/no-such-interpreter\n")
        File.chmod(0o755, "#{binary}.new")
        File.rename("#{binary}.new", binary)
        mark = LOG.string.size
        assert_equal [96, 64, nil], analysed(phone).values_at(:width, :height, :hdr), "serve: #{serve}"
        assert(log_lines_since(mark).any? { |line| line.include?("the mediatool at #{binary} does not run") }, LOG.string[mark..])
      end
    end
  end

  test "a mediatool that cannot be started any more fails its blob, without an exception" do
    # A mediatool started by an interpreter of the test's own, which is then removed: the file
    # found is the same file, and starting it fails (ENOENT) as a removed binary's start does.
    folder = Dir.mktmpdir("mediatool-interpreter-", STORAGE)
    interpreter = File.join(folder, "sh")
    File.symlink("/bin/sh", interpreter)
    binary = File.join(folder, "mediatool")
    File.write(binary, "#!#{interpreter}\nexec '#{own_mediatool}' \"$@\"\n")
    File.chmod(0o755, binary)
    phone = fixture("probe/phone-hlg-portrait.mov")
    with_mediatool(binary, serve: false, timeout: 60) do
      assert_equal [64, 96], analysed(phone).values_at(:width, :height)

      File.unlink(interpreter)
      blob = blob_of(phone)
      error = assert_raises(ActiveStorage::PreviewError) { blob.preview(resize_to_limit: [64, 64]).processed }
      assert_equal "mediatool could not preview phone-hlg-portrait.mov (#{blob.key}): mediatool could not be started: " \
                   "No such file or directory", error.message

      File.symlink("/bin/sh", interpreter)
      assert_equal [64, 96], analysed(phone).values_at(:width, :height)

      File.unlink(interpreter)
      mark = LOG.string.size
      metadata = analysed(phone)
      assert_equal true, metadata[:analyzed]
      assert_equal "mediatool could not be started: No such file or directory", metadata[:mediatool_failed]
      refute metadata.key?(:width), metadata.inspect
      assert(log_lines_since(mark).any? { |line| line.include?("mediatool could not analyse phone-hlg-portrait.mov") }, LOG.string[mark..])
      # Looked for again at the next blob: it does not run, and Rails' own analyzer does the work.
      assert_equal [96, 64], analysed(phone).values_at(:width, :height)
    end
  end

  test "a posters folder removed meanwhile (a /tmp cleaner) is made again" do
    assert_equal 16, preview_height(blob_of(fixture("video/counter.mp4")))
    folder = ActiveStorage::Mediatool.tool.instance_variable_get(:@own_folder)
    assert File.directory?(folder)
    FileUtils.remove_entry(folder)
    assert_equal 16, preview_height(blob_of(fixture("video/counter.mp4")))
  end

  test "a forked child lets its parent's processes go at once" do
    blob_of(fixture("video/counter.mp4")).analyze
    reader, writer = IO.pipe
    child = fork do
      reader.close
      writer.write(ActiveStorage::Mediatool.instance_variable_get(:@tool).nil? ? "let go" : "kept")
      writer.close
      exit!(0)
    end
    writer.close
    assert_equal "let go", reader.read
    Process.wait(child)
  end

  def preview_height(blob)
    Vips::Image.new_from_buffer(blob.preview(resize_to_limit: [4096, 4096]).processed.image.download, "").height
  end
end
