# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # One `mediatool SUBCOMMAND --serve` kept running: it is written a path a line and answers
    # each with a JSON line, its sandboxed workers warm between blobs, so a blob does not pay a
    # process start. One path at a time (a `ServerPool` lends it to one caller); a server that
    # fails (ends, stalls past its deadline, answers what was not asked) is stopped, its blob
    # fails, and the next path starts a new one.
    class Server
      # An answer is one JSON line of a few KB; a longer line is no answer.
      LONGEST_ANSWER = 1 << 20
      # Beyond mediatool's own --timeout a file: the time to start and to confine its workers.
      STARTING = 10

      def initialize(argv, timeout:)
        @argv = argv
        @timeout = timeout
      end

      # The answer to `path`: mediatool's JSON line, a Hash whose input is `path`.
      def answer(path)
        raise ArgumentError, "a path with a line feed cannot be served" if path.include?("\n")

        start unless running?
        begin
          @input.write(path + "\n")
          @input.flush
          answer = JSON.parse(read_line)
          raise Error, "it answered what was not asked (no object, or another input's)" unless answer.is_a?(Hash) && answer["input"] == path

          answer
        rescue SystemCallError => error
          stop
          raise Error, "mediatool #{@argv[1]} --serve failed: #{Mediatool.reason(error)}"
        rescue Error, IOError, JSON::ParserError => error
          stop
          # Its words, not the path it was written: the caller names the blob.
          raise Error, "mediatool #{@argv[1]} --serve failed: #{error.message.gsub(path, "its input")}"
        end
      end

      def stop
        return unless @pid

        @input.close unless @input.closed?
        # Standard input's end ends it; one that does not end at once is killed.
        Process.kill(:KILL, @pid) unless wait_for_exit(2)
        Process.wait(@pid)
      rescue SystemCallError
        nil
      ensure
        abandon
      end

      # In a forked child: the parent's server is let go without a word to it (its pipes closed
      # here, so that the parent's `stop` still ends it at once).
      def abandon
        [@input, @output].each { |io| io.close if io && !io.closed? }
        @pid = nil
      end

      private
        def running?
          return false unless @pid

          abandon unless @owner == Process.pid
          !@pid.nil?
        end

        def start
          input_reader, @input = IO.pipe
          @output, output_writer = IO.pipe
          # Its error lines repeat what the answers say: not kept.
          begin
            @pid = Command.spawn(@argv, in: input_reader, out: output_writer, err: File::NULL)
          rescue NotStarted
            abandon
            raise
          end
          @owner = Process.pid
          @held = +"".b
        ensure
          input_reader&.close
          output_writer&.close
        end

        # The next line, within the deadline.
        def read_line
          deadline = Command.now + @timeout + STARTING
          until (newline = @held.index("\n"))
            left = deadline - Command.now
            raise Error, "no answer within #{(@timeout + STARTING).round} s" if left <= 0

            next unless IO.select([@output], nil, nil, left)

            chunk = @output.read_nonblock(1 << 16, exception: false)
            next if chunk == :wait_readable
            raise Error, "it ended" if chunk.nil?

            @held << chunk
            raise Error, "an answer of more than #{LONGEST_ANSWER} bytes" if @held.bytesize > LONGEST_ANSWER
          end
          @held.slice!(0..newline).chomp.force_encoding(Encoding::UTF_8)
        end

        def wait_for_exit(seconds)
          deadline = Command.now + seconds
          while Command.now < deadline
            return true if Process.wait(@pid, Process::WNOHANG)

            sleep 0.01
          end
          false
        end
    end
  end
end
