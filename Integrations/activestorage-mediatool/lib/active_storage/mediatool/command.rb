# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # One run of a command, with a deadline over all of it: its status, standard output and the
    # end of its standard error.
    module Command
      # More than any answer mediatool gives on standard output (a poster JPEG is a few MB): a
      # run that writes more is ended, so that what is held stays bounded.
      MOST_OUTPUT = 64 << 20
      # Of standard error only the end is kept: the error line is the last.
      ERROR_TAIL = 64 << 10

      def self.run(argv, timeout:)
        deadline = now + timeout
        output_reader, output_writer = IO.pipe
        error_reader, error_writer = IO.pipe
        pid = spawn(argv, in: File::NULL, out: output_writer, err: error_writer)
        output_writer.close
        error_writer.close
        output = +"".b
        error = +"".b
        read_all({ output_reader => output, error_reader => error }, deadline: deadline, what: argv[1], error_stream: error_reader)
        status = wait(pid, deadline: deadline, what: argv[1])
        pid = nil
        [status, output, error]
      ensure
        if pid
          begin
            Process.kill(:KILL, pid)
            Process.wait(pid)
          rescue SystemCallError
            nil
          end
        end
        [output_reader, output_writer, error_reader, error_writer].each { |io| io.close if io && !io.closed? }
      end

      # The process of `argv`; a binary that cannot be started (gone since it was found, replaced
      # by what does not run) is an error of the gem's own, never Ruby's Errno into the app.
      def self.spawn(argv, **redirections)
        Process.spawn(*argv, **redirections)
      rescue SystemCallError => error
        raise NotStarted, "mediatool could not be started: #{Mediatool.reason(error)}"
      end

      def self.now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end

      def self.read_all(collected, deadline:, what:, error_stream:)
        open = collected.keys
        until open.empty?
          left = deadline - now
          raise PastDeadline, "mediatool #{what} took longer than its deadline and was stopped" if left <= 0

          ready, = IO.select(open, nil, nil, left)
          next unless ready

          ready.each do |io|
            chunk = io.read_nonblock(1 << 16, exception: false)
            next if chunk == :wait_readable

            if chunk.nil?
              open.delete(io)
              next
            end
            kept = collected[io]
            kept << chunk
            if io == error_stream
              kept.replace(kept.byteslice(-ERROR_TAIL, ERROR_TAIL)) if kept.bytesize > ERROR_TAIL
            elsif kept.bytesize > MOST_OUTPUT
              raise Error, "mediatool #{what} wrote more than #{MOST_OUTPUT} bytes"
            end
          end
        end
      end

      # Its status, once it ends: one that closed its streams and lives on is stopped at the deadline.
      def self.wait(pid, deadline:, what:)
        loop do
          _, status = Process.wait2(pid, Process::WNOHANG)
          return status if status
          raise PastDeadline, "mediatool #{what} took longer than its deadline and was stopped" if now > deadline

          sleep 0.005
        end
      end
      private_class_method :read_all, :wait
    end
  end
end
